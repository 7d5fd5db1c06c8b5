// Every query on the audit log: appending entries, the filtered newest-first pages, and retention.
import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';
import { afterCursor } from '../../lib/pagination.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

/** Appends entries (never updated, never deleted but by retention). */
export async function insertEntries(db: Executor, rows: NewAuditRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(auditLog).values(rows);
}

export interface AuditFilter {
  projectId?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  resourceType?: string | undefined;
  resourceId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

function whereOf(filter: AuditFilter): SQL | undefined {
  const actor = filter.actor;
  return and(
    filter.projectId ? eq(auditLog.projectId, filter.projectId) : undefined,
    actor
      ? or(eq(auditLog.actorId, actor), eq(auditLog.actorLabel, actor), sql`${auditLog.actorType} = ${actor}`)
      : undefined,
    // An action names one ("contact.updated") or a whole resource ("contact.").
    filter.action
      ? filter.action.endsWith('.')
        ? gte(auditLog.action, filter.action)
        : eq(auditLog.action, filter.action)
      : undefined,
    filter.action?.endsWith('.') ? lt(auditLog.action, filter.action.slice(0, -1) + '/') : undefined,
    filter.resourceType ? eq(auditLog.resourceType, filter.resourceType) : undefined,
    filter.resourceId ? eq(auditLog.resourceId, filter.resourceId) : undefined,
    filter.from ? gte(auditLog.at, filter.from) : undefined,
    filter.to ? lte(auditLog.at, filter.to) : undefined,
  );
}

/** A newest-first page of entries (limit + 1 rows) after the cursor, and the number of every match. */
export async function listEntries(
  db: Executor,
  filter: AuditFilter,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = whereOf(filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(and(where, afterCursor(auditLog.at, auditLog.id, page.cursor)))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(page.limit + 1),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Deletes up to `limit` entries older than `before`, oldest first; answers how many. */
export async function deleteEntriesBefore(db: Executor, before: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(lt(auditLog.at, before))
    .orderBy(asc(auditLog.at))
    .limit(limit);
  return (await db.delete(auditLog).where(inArray(auditLog.id, due)).returning({ id: auditLog.id })).length;
}
