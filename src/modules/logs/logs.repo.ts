// Every query on the request log: appending a batch, the filtered newest-first pages, one entry, erasure and retention.
import { and, asc, between, eq, getTableColumns, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { projects, requestLogs } from '../../db/schema/index.ts';

export type RequestLogRow = typeof requestLogs.$inferSelect;
export type NewRequestLogRow = typeof requestLogs.$inferInsert;

/** Each property of a row with its column's name, in the table's order. */
const COLUMNS = Object.entries(getTableColumns(requestLogs)).map(([property, column]) => [property, column.name]);

/**
 * Appends a batch in one multi-row INSERT, its rows sent as one JSON parameter: building a parameter per value costs
 * Node about 100 µs of CPU a row, the JSON about 13.
 */
export async function insertEntries(db: Executor, rows: NewRequestLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) =>
    Object.fromEntries(COLUMNS.map(([property, name]) => [name, row[property as keyof NewRequestLogRow] ?? null])),
  );
  const json = JSON.stringify(records);
  await db.execute(
    sql`insert into request_logs select * from json_populate_recordset(null::request_logs, ${json}::json)`,
  );
}

/** Which of these projects still exist (a batch whose project was deleted meanwhile keeps the others' entries). */
export async function existingProjects(db: Executor, ids: string[]): Promise<Set<string>> {
  const rows = await db.select({ id: projects.id }).from(projects).where(inArray(projects.id, ids));
  return new Set(rows.map((r) => r.id));
}

export interface RequestLogFilter {
  projectId: string;
  method?: string | undefined;
  /** A prefix of the path. */
  path?: string | undefined;
  /** One status, or a class as its lowest and highest status. */
  status?: { min: number; max: number } | undefined;
  keyId?: string | undefined;
  userId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const likePrefix = (prefix: string) => prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + '%';

function whereOf(filter: RequestLogFilter): SQL | undefined {
  return and(
    eq(requestLogs.projectId, filter.projectId),
    filter.method ? eq(requestLogs.method, filter.method) : undefined,
    filter.path ? sql`${requestLogs.path} like ${likePrefix(filter.path)}` : undefined,
    filter.status ? between(requestLogs.status, filter.status.min, filter.status.max) : undefined,
    filter.keyId ? and(eq(requestLogs.actorType, 'key'), eq(requestLogs.actorId, filter.keyId)) : undefined,
    filter.userId ? and(eq(requestLogs.actorType, 'user'), eq(requestLogs.actorId, filter.userId)) : undefined,
    filter.from ? gte(requestLogs.createdAt, filter.from) : undefined,
    filter.to ? lte(requestLogs.createdAt, filter.to) : undefined,
  );
}

/** A newest-first page of entries (limit + 1 rows) after the cursor, and the number of every match. */
export function listEntries(
  db: Executor,
  filter: RequestLogFilter,
  page: { limit: number; cursor?: string | undefined },
) {
  return listPage(db, requestLogs, whereOf(filter), page);
}

export async function findEntry(db: Executor, projectId: string, id: string): Promise<RequestLogRow | null> {
  const [row] = await db
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.projectId, projectId), eq(requestLogs.id, id)));
  return row ?? null;
}

/** Replaces every match of `pattern` (a case-insensitive regular expression) in the project's paths and bodies. */
export async function replaceInEntries(
  db: Executor,
  projectId: string,
  pattern: string,
  replacement: string,
): Promise<void> {
  const replace = (column: AnyPgColumn) => sql`regexp_replace(${column}, ${pattern}, ${replacement}, 'gi')`;
  await db
    .update(requestLogs)
    .set({
      path: replace(requestLogs.path),
      requestBody: replace(requestLogs.requestBody),
      responseBody: replace(requestLogs.responseBody),
    })
    .where(
      and(
        eq(requestLogs.projectId, projectId),
        or(
          sql`${requestLogs.path} ~* ${pattern}`,
          sql`${requestLogs.requestBody} ~* ${pattern}`,
          sql`${requestLogs.responseBody} ~* ${pattern}`,
        ),
      ),
    );
}

/** Deletes up to `limit` entries older than `before`, oldest first; answers how many. */
export async function deleteEntriesBefore(db: Executor, before: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: requestLogs.id })
    .from(requestLogs)
    .where(lt(requestLogs.createdAt, before))
    .orderBy(asc(requestLogs.createdAt))
    .limit(limit);
  return (await db.delete(requestLogs).where(inArray(requestLogs.id, due)).returning({ id: requestLogs.id })).length;
}
