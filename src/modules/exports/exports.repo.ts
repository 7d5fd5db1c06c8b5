import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { contacts } from '../../db/schema/index.ts';

export type ExportRow = typeof contacts.$inferSelect;

/** The most top-level data keys that get a column each; with more, the export asks for `data=json`. */
export const MAX_DATA_COLUMNS = 200;

/** The top-level data keys of the matching contacts, sorted (at most MAX_DATA_COLUMNS + 1, to tell there are more). */
export async function dataKeys(db: Executor, projectId: string, predicate: SQL | undefined): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT DISTINCT k.key FROM ${contacts} CROSS JOIN LATERAL jsonb_object_keys(${contacts.data}) AS k(key)
    WHERE ${and(eq(contacts.projectId, projectId), predicate)} ORDER BY k.key LIMIT ${MAX_DATA_COLUMNS + 1}`);
  return rowsOf<{ key: string }>(result).map((r) => r.key);
}

/**
 * The next batch of matching contacts after `afterId`, by id: the keyset an export walks (new contacts join at the
 * end).
 */
export async function contactsAfter(
  db: Executor,
  projectId: string,
  predicate: SQL | undefined,
  afterId: string | null,
  limit: number,
): Promise<ExportRow[]> {
  return db
    .select()
    .from(contacts)
    .where(and(eq(contacts.projectId, projectId), predicate, afterId ? gt(contacts.id, afterId) : undefined))
    .orderBy(asc(contacts.id))
    .limit(limit);
}
