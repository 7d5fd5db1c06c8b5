// Which schema migrations a database has, and whether this build can run on a database restored from a backup:
// an older schema is brought up to date by the next start (migrations only go forward), a newer one cannot be.
import journal from '../db/migrations/meta/_journal.json' with { type: 'json' };
import type { SchemaState } from './format.ts';

/** Runs one statement and answers its rows (the embedded database or a PostgreSQL client). */
export type RowQuery = (text: string) => Promise<Record<string, unknown>[]>;

/** The migrations applied to a database: drizzle records each one's timestamp in drizzle.__drizzle_migrations. */
export async function readSchemaState(query: RowQuery): Promise<SchemaState> {
  const [table] = await query(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (table?.present !== true) return { migrations: 0, last: null };
  const [row] = await query(
    'SELECT count(*)::int AS migrations, max(created_at)::text AS last FROM drizzle.__drizzle_migrations',
  );
  return { migrations: Number(row?.migrations ?? 0), last: row?.last == null ? null : Number(row.last) };
}

/** Why this build cannot run on a database of `state`, or null when it can (the same or an older schema). */
export function newerSchemaProblem(state: SchemaState): string | null {
  const known = journal.entries.map((entry) => entry.when);
  if (state.last === null || known.includes(state.last)) return null;
  return (
    `its database has ${state.migrations} schema migrations, the last one newer than this Herald knows ` +
    `(${known.length} migrations)`
  );
}
