import { and, asc, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contactBulkActions, contactBulkTargets, contacts } from '../../db/schema/index.ts';

export type ContactBulkRow = typeof contactBulkActions.$inferSelect;

/** Stores a new bulk action (status QUEUED). */
export async function insertBulk(db: Executor, row: typeof contactBulkActions.$inferInsert): Promise<ContactBulkRow> {
  const [created] = await db.insert(contactBulkActions).values(row).returning();
  return created!;
}

/** Numbers these contact ids as the action's targets, 1..n in the order given. */
export async function insertTargets(db: Executor, bulkId: string, contactIds: string[]): Promise<void> {
  const input = JSON.stringify(contactIds);
  await db.execute(sql`
    INSERT INTO contact_bulk_targets (bulk_id, position, contact_id)
    SELECT ${bulkId}::uuid, t.position::int, t.id::uuid FROM jsonb_array_elements_text(${input}::jsonb) WITH
      ORDINALITY AS t(id, position)`);
}

/** Numbers the project's contacts matching `predicate` (by id) as the action's targets; returns how many. */
export async function insertMatchingTargets(
  db: Executor,
  bulkId: string,
  projectId: string,
  predicate: SQL,
): Promise<number> {
  const rows = await db
    .insert(contactBulkTargets)
    .select(
      db
        .select({
          bulkId: sql`${bulkId}::uuid`.as('bulk_id'),
          position: sql<number>`(row_number() OVER (ORDER BY ${contacts.id}))::int`.as('position'),
          contactId: contacts.id,
        })
        .from(contacts)
        .where(and(eq(contacts.projectId, projectId), predicate)),
    )
    .returning({ position: contactBulkTargets.position });
  return rows.length;
}

export async function findBulk(db: Executor, projectId: string, id: string): Promise<ContactBulkRow | null> {
  const [row] = await db
    .select()
    .from(contactBulkActions)
    .where(and(eq(contactBulkActions.id, id), eq(contactBulkActions.projectId, projectId)));
  return row ?? null;
}

/** Locks an unfinished bulk action for the caller's transaction; null when it is finished or gone. */
export async function lockUnfinishedBulk(tx: Executor, id: string): Promise<ContactBulkRow | null> {
  const [row] = await tx
    .select()
    .from(contactBulkActions)
    .where(and(eq(contactBulkActions.id, id), inArray(contactBulkActions.status, ['QUEUED', 'RUNNING'])))
    .for('update');
  return row ?? null;
}

/** QUEUED → RUNNING (with the total when the targets were resolved just now). */
export async function markRunning(db: Executor, id: string, total?: number): Promise<ContactBulkRow> {
  const [row] = await db
    .update(contactBulkActions)
    .set({ status: 'RUNNING', ...(total === undefined ? {} : { total }), updatedAt: sql`now()` })
    .where(eq(contactBulkActions.id, id))
    .returning();
  return row!;
}

/** The contact ids of the next `limit` targets after position `after`, in order. */
export async function nextTargets(db: Executor, bulkId: string, after: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ contactId: contactBulkTargets.contactId })
    .from(contactBulkTargets)
    .where(
      and(
        eq(contactBulkTargets.bulkId, bulkId),
        gt(contactBulkTargets.position, after),
        lte(contactBulkTargets.position, after + limit),
      ),
    )
    .orderBy(asc(contactBulkTargets.position));
  return rows.map((r) => r.contactId);
}

/** Moves the checkpoint from `from` by one batch; false when another run moved it first. */
export async function advanceBulk(
  db: Executor,
  id: string,
  from: number,
  progress: { processed: number; failed: number },
): Promise<boolean> {
  const rows = await db
    .update(contactBulkActions)
    .set({ ...progress, updatedAt: sql`now()` })
    .where(
      and(
        eq(contactBulkActions.id, id),
        eq(contactBulkActions.status, 'RUNNING'),
        eq(contactBulkActions.processed, from),
      ),
    )
    .returning({ id: contactBulkActions.id });
  return rows.length === 1;
}

/** QUEUED/RUNNING → COMPLETED or FAILED, and drops the targets (the counters keep the outcome). */
export async function finishBulk(
  db: Executor,
  id: string,
  outcome: { status: 'COMPLETED' } | { status: 'FAILED'; failure: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const done = await tx
      .update(contactBulkActions)
      .set({ ...outcome, updatedAt: sql`now()`, finishedAt: sql`now()` })
      .where(and(eq(contactBulkActions.id, id), inArray(contactBulkActions.status, ['QUEUED', 'RUNNING'])))
      .returning({ id: contactBulkActions.id });
    if (done.length > 0) await tx.delete(contactBulkTargets).where(eq(contactBulkTargets.bulkId, id));
  });
}
