// The one list query of every resource: a newest-first page by keyset (created_at desc, id desc) and the total.
import { and, count, desc, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterCursor } from '../lib/pagination.ts';
import type { Executor } from './client.ts';

type Listable = PgTable & { createdAt: PgColumn; id: PgColumn };

/**
 * One page of `table`'s rows that match `where`, newest first after the cursor: `limit + 1` rows (the extra one
 * tells there is more, for toPage), and the number of every match.
 */
export async function listPage<T extends Listable>(db: Executor, table: T, where: SQL | undefined, page: { limit: number; cursor?: string | undefined }): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db.select().from(table as Listable).where(and(where, afterCursor(table.createdAt, table.id, page.cursor)))
      .orderBy(desc(table.createdAt), desc(table.id)).limit(page.limit + 1),
    db.select({ n: count() }).from(table as Listable).where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: total?.n ?? 0 };
}
