import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { rowsOf } from '../../db/rows.ts';
import { routing, transports, type RoutingRule } from '../../db/schema/transports.ts';

export type TransportRecord = typeof transports.$inferSelect;
export type RoutingRecord = typeof routing.$inferSelect;

export async function insertTransport(db: Executor, row: typeof transports.$inferInsert): Promise<TransportRecord> {
  const [created] = await db.insert(transports).values(row).returning();
  return created!;
}

export async function findTransport(db: Executor, projectId: string, id: string): Promise<TransportRecord | null> {
  const [row] = await db
    .select()
    .from(transports)
    .where(and(eq(transports.projectId, projectId), eq(transports.id, id)));
  return row ?? null;
}

/** The transport row, locked until the transaction ends (a routing change naming it waits, and sees it gone). */
export async function lockTransport(db: Executor, projectId: string, id: string): Promise<TransportRecord | null> {
  const [row] = await db
    .select()
    .from(transports)
    .where(and(eq(transports.projectId, projectId), eq(transports.id, id)))
    .for('update');
  return row ?? null;
}

export function listTransports(db: Executor, projectId: string, opts: { limit: number; cursor?: string | undefined }) {
  return listPage(db, transports, eq(transports.projectId, projectId), opts);
}

/**
 * The project's transports among `ids` (id and name); `share` locks them so none is deleted before the transaction
 * ends.
 */
export async function transportNames(
  db: Executor,
  projectId: string,
  ids: string[],
  opts: { share?: boolean } = {},
): Promise<Pick<TransportRecord, 'id' | 'name'>[]> {
  if (ids.length === 0) return [];
  const query = db
    .select({ id: transports.id, name: transports.name })
    .from(transports)
    .where(and(eq(transports.projectId, projectId), inArray(transports.id, ids)));
  return opts.share ? query.for('share') : query;
}

export async function updateTransport(
  db: Executor,
  projectId: string,
  id: string,
  patch: Partial<Pick<TransportRecord, 'name' | 'config' | 'secret' | 'maxPerSecond' | 'maxConnections'>>,
): Promise<TransportRecord | null> {
  // Workers rebuild a transport's connections when updated_at moves: it moves on every change, even one
  // within the same millisecond as the last.
  const [row] = await db
    .update(transports)
    .set({
      ...patch,
      updatedAt: sql`greatest(clock_timestamp(), ${transports.updatedAt} + interval '1 millisecond')`,
    })
    .where(and(eq(transports.projectId, projectId), eq(transports.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteTransport(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(transports)
    .where(and(eq(transports.projectId, projectId), eq(transports.id, id)))
    .returning({ id: transports.id });
  return rows.length === 1;
}

export async function findRouting(db: Executor, projectId: string): Promise<RoutingRecord | null> {
  const [row] = await db.select().from(routing).where(eq(routing.projectId, projectId));
  return row ?? null;
}

export async function lockRouting(db: Executor, projectId: string): Promise<RoutingRecord | null> {
  const [row] = await db.select().from(routing).where(eq(routing.projectId, projectId)).for('update');
  return row ?? null;
}

export async function saveRouting(
  db: Executor,
  projectId: string,
  value: { rules: RoutingRule[]; defaultTransportId: string },
): Promise<void> {
  await db
    .insert(routing)
    .values({ projectId, ...value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: routing.projectId, set: { ...value, updatedAt: new Date() } });
}

/** Every transport with a secret, oldest first, locked for re-sealing. */
export async function lockSealedTransports(db: Executor): Promise<TransportRecord[]> {
  return db
    .select()
    .from(transports)
    .where(sql`${transports.secret} IS NOT NULL`)
    .orderBy(asc(transports.createdAt), asc(transports.id))
    .for('update');
}

/** Every project's transports, oldest first. */
export async function allTransports(db: Executor): Promise<TransportRecord[]> {
  return db.select().from(transports).orderBy(asc(transports.createdAt), asc(transports.id));
}

/** The projects whose SES transports carry their notifications on this SNS topic. */
export async function projectsOfSnsTopic(db: Executor, topicArn: string): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT DISTINCT project_id::text AS id FROM transports
    WHERE type = 'ses' AND config -> 'snsTopicArns' @> jsonb_build_array(${topicArn}::text)`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

export async function anySesTransport(db: Executor): Promise<boolean> {
  const result = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM transports WHERE type = 'ses') AS found`);
  return rowsOf<{ found: boolean }>(result)[0]?.found === true;
}

/** Replaces a transport's sealed secret only: the secret itself is the same, so connections need no rebuild. */
export async function setSealedSecret(db: Executor, id: string, secret: string): Promise<void> {
  await db.update(transports).set({ secret }).where(eq(transports.id, id));
}
