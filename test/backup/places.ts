/**
 * Where backup tests put Herald: a DATA_DIR of its own and, with TEST_DATABASE_URL, a PostgreSQL database of its own
 * (a migrated clone of the run's template, or an empty one to restore into). The `herald` command runs as a child
 * process, as an operator runs it.
 *
 *   const source = await migratedPlace();            // a Herald database with the schema, nothing else
 *   const target = await emptyPlace();               // where a restore goes
 *   const r = await herald(['restore', file], target.env);
 *   expect(await tableCounts(target)).toEqual(...);
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { openDatabase, type Executor } from '../../src/db/client.ts';
import { adminQuery, createTestDatabase, testDatabaseKind } from '../support/database.ts';
import { withDatabase } from '../support/template.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Place {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  /** PostgreSQL only. */
  databaseUrl: string | null;
  /** What `herald` needs to find this place: DATA_DIR and, on PostgreSQL, DATABASE_URL (no secrets). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

function placeOf(dataDir: string, databaseUrl: string | null, dropDatabase: () => Promise<void>): Place {
  return {
    kind: testDatabaseKind,
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    async drop() {
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An empty DATA_DIR and, on PostgreSQL, an empty database: what a restore goes into. */
export async function emptyPlace(): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-restore-'));
  if (testDatabaseKind === 'pglite') return placeOf(dataDir, null, async () => {});
  const name = `herald_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return placeOf(dataDir, withDatabase(process.env.TEST_DATABASE_URL!, name), () =>
    adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  );
}

/** A DATA_DIR and database with Herald's schema and queues (the run's template), nothing else yet. */
export async function migratedPlace(): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-source-'));
  if (testDatabaseKind === 'postgres') {
    const database = await createTestDatabase();
    return placeOf(dataDir, database.location, () => database.drop());
  }
  const loadDataDir = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db'), loadDataDir });
  await database.close();
  return placeOf(dataDir, null, async () => {});
}

/** Runs `fn` on the place's database (on PGlite: while no Herald holds it). */
export async function onDatabase<T>(place: Place, fn: (db: Executor) => Promise<T>): Promise<T> {
  const database = await openDatabase(
    place.databaseUrl ? { databaseUrl: place.databaseUrl } : { pgliteDir: path.join(place.dataDir, 'db') },
  );
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

/** Rows of a query. */
export async function rows<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The row count of every table in Herald's schemas (public, pgboss, drizzle), by qualified name. */
export async function tableCounts(place: Place): Promise<Record<string, number>> {
  return onDatabase(place, async (db) => {
    const tables = await rows<{ name: string }>(
      db,
      sql`SELECT schemaname || '.' || tablename AS name FROM pg_tables
          WHERE schemaname IN ('public', 'pgboss', 'drizzle') ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [schema, table] = name.split('.');
      const [row] = await rows<{ n: number }>(db, sql.raw(`SELECT count(*)::int AS n FROM "${schema}"."${table}"`));
      counts[name] = row!.n;
    }
    return counts;
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `herald <args>` as a child process with exactly `env` (and PATH, HOME); resolves when it exits. */
export function herald(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A file holding `passphrase` and a newline, as an operator writes one. */
export function passphraseFile(dir: string, passphrase: string): string {
  const file = path.join(dir, `passphrase-${randomBytes(3).toString('hex')}`);
  fs.writeFileSync(file, passphrase + '\n', { mode: 0o600 });
  return file;
}

/** A JSON API call to a running Herald. */
export async function call(
  base: string,
  method: string,
  url: string,
  auth: string,
  payload?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + url, {
    method,
    headers: { authorization: auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
