// Backup and restore of a PostgreSQL database with the server's own tools: pg_dump (custom format, consistent by its
// snapshot while Herald keeps running) and pg_restore (in one transaction, into an empty database).
import fs from 'node:fs';
import { execFile, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { BackupError, type BackupHeader, type SchemaState } from './format.ts';
import { readSchemaState } from './schema-state.ts';

/** The schemas Herald's tables live in: its own, the migrations' record, the queue's. */
const HERALD_SCHEMAS = ['public', 'drizzle', 'pgboss'];

export interface Tool {
  path: string;
  version: string;
  major: number;
}

/** A libpq connection string without its password, and the password (handed over in PGPASSWORD, not argv). */
function libpqTarget(url: string): { dbname: string; password: string | null } {
  const parsed = new URL(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : null;
  parsed.password = '';
  return { dbname: parsed.toString(), password };
}

/** The child's environment: this process's (PATH, PG* settings) and the password. */
function toolEnv(password: string | null): NodeJS.ProcessEnv {
  // eslint-disable-next-line no-restricted-properties -- the child inherits the environment; nothing is read from it
  return { ...process.env, ...(password === null ? {} : { PGPASSWORD: password }) };
}

async function serverVersion(url: string): Promise<{ version: string; major: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string; n: string }>(
      'SELECT current_setting($1) AS v, current_setting($2) AS n',
      ['server_version', 'server_version_num'],
    );
    return { version: rows[0]!.v.split(' ')[0]!, major: Math.floor(Number(rows[0]!.n) / 10_000) };
  } finally {
    await client.end();
  }
}

function versionOf(file: string): Promise<string | null> {
  return new Promise((resolve) =>
    execFile(file, ['--version'], (error, stdout) =>
      resolve(error ? null : (/(\d+(?:\.\d+)*)/.exec(stdout)?.[1] ?? null)),
    ),
  );
}

/**
 * A client tool: the one Debian and Ubuntu install for the server's major version (/usr/lib/postgresql/<major>/bin),
 * else the one on PATH; refused when missing or older than `least` (`why` says what it must be as new as).
 * `versioned`: where the versioned tools are looked for.
 */
export async function findTool(
  name: 'pg_dump' | 'pg_restore',
  server: number,
  least: number,
  why: string,
  versioned = '/usr/lib/postgresql',
): Promise<Tool> {
  const fix =
    `install the PostgreSQL client tools of major version ${least} or newer (Debian and Ubuntu: ` +
    `apt-get install postgresql-client-${Math.max(server, least)}, from apt.postgresql.org if the release lacks ` +
    `it) and put ${name} on PATH`;
  const candidates = [`${versioned}/${server}/bin/${name}`, name].filter((c) => c === name || fs.existsSync(c));
  for (const candidate of candidates) {
    const version = await versionOf(candidate);
    if (!version) continue;
    const toolMajor = Number(version.split('.')[0]);
    if (toolMajor < least) throw new BackupError(`${name} ${version} is older than ${why}: ${fix}.`);
    return { path: candidate, version, major: toolMajor };
  }
  throw new BackupError(`${name} was not found: ${fix}.`);
}

/** Runs a tool; resolves with its exit, its stderr kept for the message. */
function run(tool: Tool, args: string[], password: string | null, stdio: 'stdin' | 'stdout') {
  const child = spawn(tool.path, args, {
    env: toolEnv(password),
    stdio: stdio === 'stdin' ? ['pipe', 'ignore', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new BackupError(`${tool.path} did not start: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new BackupError(`${tool.path} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
  return { child, exited };
}

/** Starts pg_dump of `url`: the dump as a stream (which fails if pg_dump does), with what the header records. */
export async function dumpPostgres(url: string): Promise<{
  schema: SchemaState;
  postgres: NonNullable<BackupHeader['postgres']>;
  dump: AsyncIterable<Uint8Array>;
}> {
  const server = await serverVersion(url);
  const tool = await findTool('pg_dump', server.major, server.major, `the PostgreSQL server (${server.version})`);
  const schema = await withClient(url, (query) => readSchemaState(query));
  const { dbname, password } = libpqTarget(url);
  const { child, exited } = run(
    tool,
    ['--format=custom', '--no-owner', '--no-acl', `--dbname=${dbname}`],
    password,
    'stdout',
  );
  exited.catch(() => {});
  const dump = async function* () {
    let read = false;
    try {
      yield* child.stdout! as AsyncIterable<Buffer>;
      read = true;
    } finally {
      // The reader stopped early (the file could not be written): pg_dump has nobody to write to.
      if (!read) child.kill();
    }
    await exited;
  };
  return { schema, postgres: { server: server.version, pgDump: tool.version }, dump: dump() };
}

async function withClient<T>(
  url: string,
  fn: (query: (text: string) => Promise<Record<string, unknown>[]>) => Promise<T>,
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  } finally {
    await client.end();
  }
}

/** What stops a restore into `url`: Herald's schemas or any table in them; null when the database is empty. */
export async function postgresContents(url: string): Promise<string | null> {
  return withClient(url, async (query) => {
    const schemas = (
      await query(
        `SELECT nspname FROM pg_namespace WHERE nspname IN (${HERALD_SCHEMAS.map((s) => `'${s}'`).join(', ')})
         AND nspname <> 'public' ORDER BY 1`,
      )
    ).map((row) => String(row.nspname));
    const relations = (
      await query(
        `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
           AND n.nspname IN (${HERALD_SCHEMAS.map((s) => `'${s}'`).join(', ')})
         ORDER BY n.nspname <> 'public', 1`,
      )
    ).map((row) => String(row.name));
    if (relations.length > 0) {
      const some = relations.slice(0, 5).join(', ') + (relations.length > 5 ? ', …' : '');
      return `it has ${relations.length} tables, sequences or views (${some})`;
    }
    if (schemas.length > 0) return `it has the schema${schemas.length > 1 ? 's' : ''} ${schemas.join(', ')}`;
    return null;
  });
}

/** Restores a verified dump into the empty database of `url`, in one transaction. */
export async function restorePostgres(url: string, header: BackupHeader, dump: AsyncIterable<Uint8Array>) {
  const server = await serverVersion(url);
  // pg_restore reads the archives of its own and older pg_dump versions.
  const pgDump = header.postgres?.pgDump ?? '0';
  const tool = await findTool(
    'pg_restore',
    server.major,
    Number(pgDump.split('.')[0]),
    `the backup's pg_dump (${pgDump})`,
  );
  const { dbname, password } = libpqTarget(url);
  const { child, exited } = run(
    tool,
    ['--no-owner', '--no-acl', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`],
    password,
    'stdin',
  );
  exited.catch(() => {});
  try {
    await pipeline(Readable.from(dump), child.stdin!);
  } catch (error) {
    // The dump failed its check while streaming: stop pg_restore before it commits (its one transaction rolls back).
    if (error instanceof BackupError) {
      child.kill('SIGKILL');
      await exited.catch(() => {});
      throw error;
    }
    // Else pg_restore stopped reading: its own exit says why, with what the writing side saw.
    await exited.catch((exit: unknown) => {
      throw new BackupError(`${exit instanceof Error ? exit.message : String(exit)} (while writing: ${String(error)})`);
    });
    throw new BackupError(`pg_restore stopped reading: ${String(error)}`);
  }
  await exited;
  // pg_restore does not bring the planner's statistics: gather them, so the first queries plan as before.
  await withClient(url, (query) => query('ANALYZE'));
}
