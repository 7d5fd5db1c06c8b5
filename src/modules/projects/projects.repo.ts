import { and, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { apiKeys, projects } from '../../db/schema/index.ts';
import { afterCursor } from '../../lib/pagination.ts';

export type ProjectRow = typeof projects.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Creates a project row. */
export async function insertProject(db: Executor, row: { id: string; name: string }): Promise<ProjectRow> {
  const [created] = await db.insert(projects).values(row).returning();
  return created!;
}

export async function findProject(db: Executor, id: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id));
  return row ?? null;
}

export async function listProjects(db: Executor, opts: { limit: number; cursor?: string | undefined }) {
  const rows = await db
    .select()
    .from(projects)
    .where(afterCursor(projects.createdAt, projects.id, opts.cursor))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(opts.limit + 1);
  const [total] = await db.select({ n: count() }).from(projects);
  return { rows, total: total?.n ?? 0 };
}

export async function countProjects(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projects);
  return row?.n ?? 0;
}

/** Renames or disables a project. */
export async function updateProject(
  db: Executor,
  id: string,
  patch: { name?: string | undefined; disabled?: boolean | undefined },
): Promise<ProjectRow | null> {
  const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const [row] = await db
    .update(projects)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(projects.id, id))
    .returning();
  return row ?? null;
}

/** Stores a new key (its hash only). */
export async function insertApiKey(db: Executor, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [created] = await db.insert(apiKeys).values(row).returning();
  return created!;
}

export async function listApiKeys(db: Executor, projectId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.projectId, projectId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revokes a key; null when it does not exist in that project or is already revoked. */
export async function revokeApiKey(db: Executor, projectId: string, keyId: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? null;
}

/** A key by id with its project (the caller's own key). */
export async function findApiKeyWithProject(db: Executor, id: string) {
  const [row] = await db
    .select({ key: apiKeys, project: projects })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .where(eq(apiKeys.id, id));
  return row ?? null;
}

/** How long a dashboard session's key lives without a request (the server refuses it afterwards). */
export const SESSION_KEY_IDLE = sql`interval '12 hours'`;

/** A session key idle past the limit: measured from its last use, or its creation when never used. */
const idleSessionKey = and(
  eq(apiKeys.session, true),
  lt(sql`coalesce(${apiKeys.lastUsedAt}, ${apiKeys.createdAt})`, sql`now() - ${SESSION_KEY_IDLE}`),
);

/** The live key with this hash and its project, for authentication (a session key idle too long is not live). */
export async function findKeyByHash(db: Executor, keyHash: string) {
  const [row] = await db
    .select({ key: apiKeys, project: projects })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt), sql`NOT (${idleSessionKey})`));
  return row ?? null;
}

/**
 * Records that a live key was used now (at most once a minute, to keep hot keys from writing per request); an expired
 * or revoked key is refused, so its last use stays what it was.
 */
export async function touchApiKey(db: Executor, id: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, id),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    );
}

/** Revokes a session key by its own id (the dashboard leaving); null when it is no live session key. */
export async function revokeSessionKey(db: Executor, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.session, true), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? null;
}

/** Deletes session keys that ended (revoked, or idle past the limit); they grant nothing any more. */
export async function deleteEndedSessionKeys(db: Executor): Promise<number> {
  const rows = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.session, true), or(isNotNull(apiKeys.revokedAt), idleSessionKey)))
    .returning({ id: apiKeys.id });
  return rows.length;
}
