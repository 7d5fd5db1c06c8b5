import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a named query can run on: the root handle or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Present on the embedded database: pg-boss and dumps need the instance itself. */
  pglite?: PGlite;
  /** Present on PostgreSQL: the connection string pg-boss opens its own pool with. */
  connectionString?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** Folder of the embedded database; omitted = in memory (tests). */
  pgliteDir?: string;
  /** A dump to start the embedded database from (tests load one migrated template). */
  loadDataDir?: Blob | File;
  poolSize?: number;
}

/**
 * The embedded database's memory settings. It runs inside this process, in WebAssembly memory that grows to the most it
 * ever held and never shrinks, so every buffer it may fill counts toward the process's peak. Its files are on disk
 * and read through the operating system's page cache, so a large buffer pool of its own adds little: 32 MB of shared
 * buffers (PostgreSQL's default is 128 MB) and 16 MB for maintenance (vacuum, index builds; default 64 MB). Queries
 * keep PostgreSQL's default 4 MB of work memory per sort or hash.
 */
const EMBEDDED_SETTINGS = ['shared_buffers=32MB', 'maintenance_work_mem=16MB'];

const EMBEDDED_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting]),
];

/** Makes a new embedded database in `dir` and closes it, in a process of its own (see below). */
const CREATE_IN_CHILD = `
const [url, dir, params] = process.argv.slice(1);
const { PGlite } = await import(url);
const pglite = await PGlite.create({ dataDir: dir, startParams: JSON.parse(params) });
await pglite.close();
`;

/**
 * Creates the embedded database's files in `dir` when there are none yet. Making a new database runs initdb in a
 * second WebAssembly instance and copies its result over, which takes the process to about 800 MB for a few
 * seconds and leaves about 400 MB of it held for as long as the process lives. A short-lived child process does it
 * instead, so the server opens an existing database, as on every later start, and its memory is what serving costs.
 */
async function createEmbeddedFiles(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  const url = import.meta.resolve('@electric-sql/pglite');
  await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', CREATE_IN_CHILD, url, dir, JSON.stringify(EMBEDDED_START_PARAMS)],
    { maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(`Could not create the embedded database in ${dir}: ${error.stderr?.trim() || error.message}`);
  });
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite; same schema, same queries. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    return {
      kind: 'postgres',
      db: drizzlePg(pool, { schema }) as unknown as Db,
      connectionString: options.databaseUrl,
      close: () => pool.end(),
    };
  }
  if (options.pgliteDir && !options.loadDataDir) await createEmbeddedFiles(options.pgliteDir);
  const pglite = await PGlite.create({
    ...(options.pgliteDir ? { dataDir: options.pgliteDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    startParams: EMBEDDED_START_PARAMS,
  });
  return {
    kind: 'pglite',
    db: drizzlePglite(pglite, { schema }) as unknown as Db,
    pglite,
    close: () => pglite.close(),
  };
}
