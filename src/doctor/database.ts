// Doctor's database checks: the database answers, every migration of this build is applied, the database server's
// clock agrees with this machine's, the verified sender domains still verify, and the projects' transports connect.
// An embedded database held by a running server is checked through that server, which alone may open it.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { AppContext, Secrets } from '../context.types.ts';
import { pino } from 'pino';
import { assemble } from '../runtime.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/lock.ts';
import { rowsOf } from '../db/rows.ts';
import { readServerFile } from '../server-file.ts';
import { clockRow } from './clock.ts';
import { domainRowsOf } from './domains.ts';
import { MIGRATE_FIX, migrationsRow, type DatabaseLimits } from './migrations.ts';
import { projectTransportRows } from './transports.ts';
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
    if (error instanceof DataDirLockedError) return heldRows(config, secrets, error, limits);
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

/**
 * The rows of an embedded database another process holds, through that server: its /readyz, then the migrations and
 * sender domains checked in the server itself (POST /admin/doctor, with the admin token).
 */
async function heldRows(
  config: Readonly<Config>,
  secrets: Secrets,
  locked: DataDirLockedError,
  limits: DatabaseLimits,
): Promise<CheckRow[]> {
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
  const held = ok('database', `${label}, held by ${holder}: its /readyz answers`);
  const checked = await checkedByServer(server.url, secrets.adminToken, limits);
  if (checked) return [held, ...checked];
  return [
    held,
    ok('migrations', `brought up to date by the running Herald (pid ${server.pid}) when it started`),
    warn(
      'domains',
      `not checked: only the running Herald (pid ${server.pid}) may open the embedded database`,
      'Stop it and run herald doctor again, or verify each domain in the dashboard (Domains) or with ' +
        'POST /domains/{id}/verify.',
    ),
  ];
}

/** The migration and domain rows a running server checked on its own database; null when it could not. */
async function checkedByServer(url: string, adminToken: string, limits: DatabaseLimits): Promise<CheckRow[] | null> {
  if (!adminToken) return null;
  try {
    const response = await fetch(new URL('/admin/doctor', url), {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      signal: AbortSignal.timeout(limits.queryMs + limits.domainMs * 4 + limits.transportMs),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: { rows?: CheckRow[] } };
    return Array.isArray(body.data?.rows) ? body.data.rows : null;
  } catch {
    return null;
  }
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
  return [...rows, ...(await contextRows({ config, database, secrets, limits }))];
}

/** How far the database server's clock is ahead of this machine's, in ms: its time against the query's middle. */
async function databaseOffset(database: Database): Promise<number> {
  const before = Date.now();
  const result = await database.db.execute(sql`SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms`);
  const after = Date.now();
  return Number(rowsOf<{ ms: string | number }>(result)[0]?.ms) - (before + after) / 2;
}

/**
 * The domain and project transport rows of a database doctor opened itself: on a context assembled for the checks,
 * closed after them.
 */
async function contextRows(opts: {
  config: Readonly<Config>;
  database: Database;
  secrets: Secrets;
  limits: DatabaseLimits;
}): Promise<CheckRow[]> {
  const { config, database, secrets, limits } = opts;
  let ctx: AppContext;
  try {
    ctx = await within(limits.domainMs, assemble({ config, database, logger: pino({ level: 'silent' }), secrets }));
  } catch (error) {
    return [fail('domains', `not checked: ${describeError(error)}`, "Look at the database server's log.")];
  }
  try {
    return [...(await domainRowsOf(ctx, limits.domainMs)), ...(await projectTransportRows(ctx, limits.transportMs))];
  } finally {
    await within(limits.domainMs, closeContext(ctx)).catch(() => {});
  }
}

async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.queue.stop();
  await ctx.transport.close();
  await ctx.resources.close();
}
