// One INSERT of many rows whose values travel as a single JSON parameter, unpacked by PostgreSQL
// (jsonb_to_recordset). drizzle's `insert().values(rows)` makes one parameter per value and wraps, checks and
// numbers each: for a 500-row batch of a 20-column table that is 10,000 of them, built on the event loop and
// kept until the statement returns (the campaign fan-out's insert was most of drizzle's time and
// of the main heap's growth). Columns are those the rows set; a column no row sets keeps its default, and one
// that only some rows set is NULL in the others (so that is allowed only for columns without a default).
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** A value as jsonb_to_recordset reads it back into the column's type. */
function jsonValue(value: unknown, isJson: boolean): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (!isJson && value !== null && typeof value === 'object')
    throw new Error('jsonRowsInsert: only JSON columns take objects');
  return value;
}

/** `INSERT INTO table (cols) SELECT cols FROM jsonb_to_recordset($1) …` followed by `tail` (ON CONFLICT, RETURNING). */
export function jsonRowsInsert<T extends PgTable>(table: T, rows: T['$inferInsert'][], tail: SQL = sql``): SQL {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((row) => (row as Record<string, unknown>)[key] !== undefined),
  );
  for (const row of rows) {
    const missing = columns.find(
      ([key, column]) => column.hasDefault && (row as Record<string, unknown>)[key] === undefined,
    );
    if (missing)
      throw new Error(`jsonRowsInsert: a row leaves out ${missing[0]}, which has a default and another row sets`);
  }
  const json = rows.map((row) =>
    Object.fromEntries(
      columns.map(([key, column]) => [
        column.name,
        jsonValue((row as Record<string, unknown>)[key] ?? null, column.dataType === 'json'),
      ]),
    ),
  );
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const types = sql.join(
    columns.map(([, column]) => sql`${sql.identifier(column.name)} ${sql.raw(column.getSQLType())}`),
    sql`, `,
  );
  return sql`INSERT INTO ${table} (${names}) SELECT ${names} FROM jsonb_to_recordset(${JSON.stringify(json)}::jsonb)
    AS r(${types}) ${tail}`;
}
