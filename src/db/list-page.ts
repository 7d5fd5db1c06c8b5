// The one list query of every resource: a newest-first page by keyset (created_at desc, id desc) and the total.
import { and, asc, count, desc, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterCursor, beforeCursor, decodeBeforeCursor } from '../lib/pagination.ts';
import type { Executor } from './client.ts';

type Listable = PgTable & { createdAt: PgColumn; id: PgColumn };

/**
 * One page of `table`'s rows that match `where`, newest first after the cursor: `limit + 1` rows (the extra one
 * tells there is more, for toPage), and the number of every match. Columns named in `omit` are not read (bodies a
 * list does not show). A before-cursor asks for the `limit` rows just newer than its row instead, still newest first,
 * the extra row (the next newer one) last.
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
  const before = page.cursor ? decodeBeforeCursor(page.cursor) : null;
  const [found, [total]] = await Promise.all([
    (omitted.size === 0 ? db.select() : db.select(columns))
      .from(table as Listable)
      .where(
        and(
          where,
          before
            ? beforeCursor(table.createdAt, table.id, before)
            : afterCursor(table.createdAt, table.id, page.cursor),
        ),
      )
      .orderBy(...(before ? [asc(table.createdAt), asc(table.id)] : [desc(table.createdAt), desc(table.id)]))
      .limit(page.limit + 1),
    db
      .select({ n: count() })
      .from(table as Listable)
      .where(where),
  ]);
  const rows = before ? [...found.slice(0, page.limit).reverse(), ...found.slice(page.limit)] : found;
  return { rows: rows as Omit<T['$inferSelect'], K>[], total: total?.n ?? 0 };
}
