// The migrations check, and the checks a server makes on its own database for `herald doctor` run beside it.
import { sql } from 'drizzle-orm';
import journal from '../db/migrations/meta/_journal.json' with { type: 'json' };
import type { AppContext } from '../context.types.ts';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { domainRowsOf } from './domains.ts';
import { projectTransportRows } from './transports.ts';
import { fail, ok, runCheck, warn, type CheckRow } from './rows.ts';

export interface DatabaseLimits {
  /** Opening the embedded database (WASM start-up, slower on a busy machine). */
  openMs: number;
  /** One query, or one request to a running server. */
  queryMs: number;
  /** One sender domain's DNS lookups and their evaluation. */
  domainMs: number;
  /** One project transport's connection (and AUTH). */
  transportMs: number;
}

/** The limits a server applies when it checks its own database for doctor. */
const DATABASE_LIMITS: DatabaseLimits = { openMs: 20_000, queryMs: 5_000, domainMs: 15_000, transportMs: 15_000 };

export const MIGRATE_FIX = 'Run herald migrate (or start Herald, which migrates at start).';

interface JournalEntry {
  when: number;
  tag: string;
}

/**
 * This build's migrations (the journal) against drizzle's table of applied ones, by drizzle's own rule: a migration
 * counts as applied when it is not newer than the newest one applied.
 */
export async function migrationsRow(database: Database): Promise<CheckRow> {
  const entries: JournalEntry[] = journal.entries;
  const newest = entries.at(-1)!;
  const table = await database.db.execute(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
  );
  if (!rowsOf<{ present: boolean }>(table)[0]?.present)
    return fail('migrations', `none of this build's ${entries.length} migrations is applied`, MIGRATE_FIX);
  const result = await database.db.execute(sql`SELECT max(created_at)::text AS at FROM drizzle.__drizzle_migrations`);
  const lastApplied = Number(rowsOf<{ at: string | null }>(result)[0]?.at ?? 0);
  const pending = entries.filter((entry) => entry.when > lastApplied);
  if (pending.length > 0) {
    const names = pending.slice(0, 3).map((entry) => entry.tag);
    if (pending.length > 3) names.push('…');
    return fail(
      'migrations',
      `${pending.length} of ${entries.length} not applied (${names.join(', ')}); sender domains not checked`,
      MIGRATE_FIX,
    );
  }
  if (lastApplied > newest.when) {
    return warn(
      'migrations',
      `a newer Herald migrated this database: its last migration is newer than ${newest.tag}, this build's last`,
      'Upgrade this installation: run doctor, and every Herald process on this database, from the newer version.',
    );
  }
  return ok('migrations', `all ${entries.length} applied (last: ${newest.tag})`);
}

/**
 * The rows a server checks on its own database for `herald doctor` run beside it: migrations, then sender domains and
 * the projects' transports.
 */
export async function rowsInServer(ctx: AppContext, limits: DatabaseLimits = DATABASE_LIMITS): Promise<CheckRow[]> {
  const migrations = await runCheck('migrations', limits.queryMs, MIGRATE_FIX, () => migrationsRow(ctx.database));
  if (migrations.some((row) => row.status === 'FAIL')) return migrations;
  return [
    ...migrations,
    ...(await domainRowsOf(ctx, limits.domainMs)),
    ...(await projectTransportRows(ctx, limits.transportMs)),
  ];
}
