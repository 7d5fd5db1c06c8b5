/**
 * Shared by benchmarks: fresh databases, an in-process app (segments, import), the machine line, percentiles,
 * per-recipient tallies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.types.ts';
import { assemble, startBackground } from '../src/runtime.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export type DbKind = 'pglite' | 'postgres';

/** True when the PostgreSQL server of PG_URL answers. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The databases a sending bench runs on: PostgreSQL (when reachable), then PGlite; BENCH_DB=postgres|pglite picks one.
 */
export async function benchKinds(): Promise<DbKind[]> {
  const hasPostgres = await postgresAvailable();
  if (!hasPostgres) console.log(`PostgreSQL at ${PG_URL} is not reachable (BENCH_DATABASE_URL): PGlite only`);
  const only = process.env.BENCH_DB;
  return (['postgres', 'pglite'] as const).filter((k) => (only ? k === only : true) && (k === 'pglite' || hasPostgres));
}

/** Runs one statement on the PostgreSQL server of PG_URL (CREATE / DROP DATABASE). */
export async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh, randomly named PostgreSQL database for `postgres` (dropped by `drop`); nothing for `pglite`. */
export async function createBenchDatabase(
  kind: DbKind,
): Promise<{ databaseUrl: string | undefined; drop: () => Promise<void> }> {
  if (kind !== 'postgres') return { databaseUrl: undefined, drop: async () => {} };
  const name = `herald_bench_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return { databaseUrl: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface BenchApp {
  ctx: AppContext;
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Herald on a fresh database of `kind`, listening on a random port, with or without its worker. */
export async function startBenchApp(opts: {
  kind: DbKind;
  env?: Record<string, string>;
  worker?: boolean;
  register?: BuildAppOptions['register'];
}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  const { databaseUrl, drop } = await createBenchDatabase(opts.kind);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...opts.env,
  });
  const database = await openDatabase(
    databaseUrl ? { databaseUrl, poolSize: 20 } : { pgliteDir: path.join(dataDir, 'db') },
  );
  await migrateDatabase(database);
  const logger = pino({ level: 'warn' });
  const ctx = await assemble({
    config,
    database,
    logger,
    secrets: { adminToken: config.adminToken!, appSecret: config.appSecret! },
  });
  const queue = ctx.queue;
  const workers = opts.worker ? await startBackground(ctx) : null;
  const app = await buildApp(ctx, opts.register ? { register: opts.register } : {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    ctx,
    app,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await workers?.close();
      await queue.stop();
      await ctx.transport.close();
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `task` `total` times with `concurrency` in flight. */
export async function runPool(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
}

/** The value at percentile `p` (0–100) of ascending `sorted` values. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Delivered unique / duplicates / missing of `expected` addresses, from a sink's per-recipient counts. */
export function tally(
  perRecipient: ReadonlyMap<string, number>,
  expected: readonly string[],
): { unique: number; duplicates: number; missing: number } {
  let unique = 0;
  let duplicates = 0;
  for (const address of expected) {
    const count = perRecipient.get(address.toLowerCase()) ?? 0;
    if (count > 0) unique += 1;
    duplicates += Math.max(0, count - 1);
  }
  return { unique, duplicates, missing: expected.length - unique };
}

/** The line every bench prints first: when, on what CPU, how many cores, Node, PostgreSQL and PGlite. */
export async function machineLine(): Promise<string> {
  const cpus = os.cpus();
  let postgres = 'PostgreSQL not reachable';
  if (await postgresAvailable()) {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
      postgres = `PostgreSQL ${version}`;
    } finally {
      await client.end();
    }
  }
  const embedded = await PGlite.create();
  const pglite = (await embedded.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  await embedded.close();
  return (
    `${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} ` +
    `· ${cpus.length} cores · ${Math.round(os.totalmem() / 2 ** 30)} ` +
    `GB RAM · ` +
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · Node ${process.version} · ${postgres} · PGlite (PostgreSQL ${pglite})`
  );
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
