// The one list query of every resource: a newest-first page by keyset (created_at desc, id desc) and the total.
// A cursor may also ask for the page before a row (the rows newer than it), still answered newest first.
import { and, count, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { keyset } from '../lib/pagination.ts';
import type { Executor } from './client.ts';

type Listable = PgTable & { createdAt: PgColumn; id: PgColumn };

/**
 * One page of `table`'s rows that match `where`, newest first after the cursor: `limit + 1` rows (the extra one
 * tells there is more, for toPage), and the number of every match. Columns named in `omit` are not read (bodies a
 * list does not show).
 */
export async function listPage<T extends Listable, K extends keyof T['$inferSelect'] & string = never>(
  db: Executor,
  table: T,
  where: SQL | undefined,
  page: { limit: number; cursor?: string | undefined },
  opts: { omit?: readonly K[] } = {},
): Promise<{ rows: Omit<T['$inferSelect'], K>[]; total: number }> {
  const omitted = new Set<string>(opts.omit ?? []);
  const columns = Object.fromEntries(
    Object.entries(getTableColumns(table as Listable)).filter(([name]) => !omitted.has(name)),
  );
  const keys = keyset(table.createdAt, table.id, page.cursor);
  const [rows, [total]] = await Promise.all([
    (omitted.size === 0 ? db.select() : db.select(columns))
      .from(table as Listable)
      .where(and(where, keys.where))
      .orderBy(...keys.orderBy)
      .limit(page.limit + 1),
    db
      .select({ n: count() })
      .from(table as Listable)
      .where(where),
  ]);
  return { rows: keys.arrange(rows as Omit<T['$inferSelect'], K>[], page.limit), total: total?.n ?? 0 };
}
