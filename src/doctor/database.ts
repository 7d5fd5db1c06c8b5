// Doctor's database checks: the database answers, every migration of this build is applied, the database server's
// clock agrees with this machine's, and the verified sender domains still verify. An embedded database held by a
// running server is checked through that server, which alone may open it.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import journal from '../db/migrations/meta/_journal.json' with { type: 'json' };
import type { Config } from '../config.ts';
import type { Secrets } from '../context.types.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/lock.ts';
import { rowsOf } from '../db/rows.ts';
import { readServerFile } from '../server-file.ts';
import { clockRow } from './clock.ts';
import { domainRows } from './domains.ts';
import {
  CheckTimeout,
  describeError,
  errorCode,
  fail,
  isRefused,
  ok,
  runCheck,
  warn,
  within,
  type CheckRow,
} from './rows.ts';
import { databaseLabel } from './setup.ts';

export interface DatabaseLimits {
  /** Opening the embedded database (WASM start-up, slower on a busy machine). */
  openMs: number;
  /** One query, or one request to a running server. */
  queryMs: number;
  /** One sender domain's DNS lookups and their evaluation. */
  domainMs: number;
}

const MIGRATE_FIX = 'Run herald migrate (or start Herald, which migrates at start).';

/** The database's rows: opened directly (PostgreSQL, or an embedded database nobody holds) or through its server. */
export async function databaseRows(
  config: Readonly<Config>,
  secrets: Secrets,
  limits: DatabaseLimits,
): Promise<CheckRow[]> {
  if (config.databaseUrl) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 });
    try {
      return await checksOn(config, database, secrets, limits);
    } finally {
      await within(limits.queryMs, database.close()).catch(() => {});
    }
  }
  return embeddedRows(config, secrets, limits);
}

async function embeddedRows(config: Readonly<Config>, secrets: Secrets, limits: DatabaseLimits): Promise<CheckRow[]> {
  const dir = path.join(config.dataDir, 'db');
  const label = databaseLabel(config);
  if (!fs.existsSync(dir)) {
    return [
      warn(
        'database',
        `no embedded database in ${dir} yet`,
        'Start Herald (herald serve) or run herald migrate: either makes and migrates it.',
      ),
    ];
  }
  let release: () => void;
  try {
    release = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) return heldRows(config, error, limits);
    return [fail('database', `${label}: ${describeError(error)}`, 'Let the user Herald runs as write DATA_DIR.')];
  }
  try {
    let database: Database;
    try {
      database = await within(limits.openMs, openDatabase({ pgliteDir: dir }));
    } catch (error) {
      return [
        fail(
          'database',
          `${label} did not open: ${describeError(error)}`,
          "Look at the last server's log; if the folder is damaged, restore DATA_DIR/db from a backup.",
        ),
      ];
    }
    try {
      return await checksOn(config, database, secrets, limits);
    } finally {
      await database.close().catch(() => {});
    }
  } finally {
    release();
  }
}

/** The rows of an embedded database another process holds: through that server's API, which answers /readyz. */
async function heldRows(config: Readonly<Config>, locked: DataDirLockedError, limits: DatabaseLimits) {
  const label = databaseLabel(config);
  const server = readServerFile(config.dataDir);
  if (!server) {
    const pid = /pid (\d+)/.exec(locked.message)?.[1] ?? 'unknown';
    return [
      warn(
        'database',
        `${label} is held by Herald (pid ${pid}), which serves no API (a worker, or still starting): not checked`,
        'Run doctor again once the server listens, or stop that process to let doctor open the database.',
      ),
    ];
  }
  const holder = `the running Herald (pid ${server.pid}, ${server.url})`;
  try {
    const response = await fetch(new URL('/readyz', server.url), { signal: AbortSignal.timeout(limits.queryMs) });
    if (!response.ok) {
      return [
        fail(
          'database',
          `${label} is held by ${holder}, whose database does not answer (/readyz: ${response.status})`,
          "Look at that server's log, and restart it.",
        ),
      ];
    }
  } catch (error) {
    return [
      fail(
        'database',
        `${label} is held by ${holder}, whose API does not answer: ${describeError(error)}`,
        'Look at that process, and restart it if it hangs.',
      ),
    ];
  }
  return [
    ok('database', `${label}, held by ${holder}: its /readyz answers`),
    ok('migrations', `brought up to date by the running Herald (pid ${server.pid}) when it started`),
    warn(
      'domains',
      `not checked: only the running Herald (pid ${server.pid}) may open the embedded database`,
      'Stop it and run herald doctor again, or verify each domain in the dashboard (Domains) or with ' +
        'POST /domains/{id}/verify.',
    ),
  ];
}

/** What to do about a database that did not answer. */
function unreachableFix(config: Readonly<Config>, error: unknown): string {
  if (!config.databaseUrl) return "Look at the last server's log; if the folder is damaged, restore it from a backup.";
  const url = new URL(config.databaseUrl);
  const code = errorCode(error);
  if (isRefused(error)) return `Nothing listens at ${url.host}: start PostgreSQL, or correct DATABASE_URL.`;
  if (code === '28P01' || code === '28000') return 'PostgreSQL refused the user or password in DATABASE_URL.';
  if (code === '3D000') return `Create the database (createdb ${url.pathname.slice(1)}), or correct DATABASE_URL.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${url.hostname} does not resolve: correct DATABASE_URL.`;
  if (error instanceof CheckTimeout) return `No answer from ${url.host}: check the host, the port and the firewall.`;
  return "Check DATABASE_URL and the database server's log.";
}

async function checksOn(
  config: Readonly<Config>,
  database: Database,
  secrets: Secrets,
  limits: DatabaseLimits,
): Promise<CheckRow[]> {
  const label = databaseLabel(config);
  let version: string;
  try {
    const result = await within(
      limits.queryMs,
      database.db.execute(sql`SELECT current_setting('server_version') AS v`),
    );
    version = rowsOf<{ v: string }>(result)[0]?.v.split(' ')[0] ?? '?';
  } catch (error) {
    const skipped = 'migrations and sender domains not checked';
    return [fail('database', `${label}: ${describeError(error)} (${skipped})`, unreachableFix(config, error))];
  }
  const rows = [ok('database', `${label} answers (PostgreSQL ${version})`)];
  const migrations = await runCheck('migrations', limits.queryMs, MIGRATE_FIX, () => migrationsRow(database));
  rows.push(...migrations);
  if (database.kind === 'postgres') {
    const fix = 'Check that this machine reaches the database server and that it answers `SELECT clock_timestamp()`.';
    rows.push(
      ...(await runCheck('database clock', limits.queryMs, fix, async () =>
        clockRow('database clock', await databaseOffset(database), 'the database server'),
      )),
    );
  }
  if (migrations.some((row) => row.status === 'FAIL')) return rows;
  return [...rows, ...(await domainRows({ config, database, secrets, limitMs: limits.domainMs }))];
}

interface JournalEntry {
  when: number;
  tag: string;
}

/**
 * This build's migrations (the journal) against drizzle's table of applied ones, by drizzle's own rule: a migration
 * counts as applied when it is not newer than the newest one applied.
 */
async function migrationsRow(database: Database): Promise<CheckRow> {
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

/** How far the database server's clock is ahead of this machine's, in ms: its time against the query's middle. */
async function databaseOffset(database: Database): Promise<number> {
  const before = Date.now();
  const result = await database.db.execute(sql`SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms`);
  const after = Date.now();
  return Number(rowsOf<{ ms: string | number }>(result)[0]?.ms) - (before + after) / 2;
}
