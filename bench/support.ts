/** Shared by benchmarks: a fresh database (embedded or PostgreSQL), an app on it, and a verified sender. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext, type AppContext } from '../src/context.ts';
import { startWorkerServices } from '../src/workers.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createProject } from '../src/modules/projects/projects.service.ts';
import { createDomain, verifyDomain } from '../src/modules/domains/domains.service.ts';
import nodemailer from 'nodemailer';
import type { TestDnsServer } from '../test/support/dns-server.ts';

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
export async function createBenchDatabase(kind: DbKind): Promise<{ databaseUrl: string | undefined; drop: () => Promise<void> }> {
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
export async function startBenchApp(opts: { kind: DbKind; env?: Record<string, string>; worker?: boolean }): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  const { databaseUrl, drop } = await createBenchDatabase(opts.kind);
  const config = loadConfig({
    DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_TOKEN: 'bench-admin-token-0123456789', APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop',
    RATE_LIMIT_PER_MINUTE: '100000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...opts.env,
  });
  const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 20 } : { pgliteDir: path.join(dataDir, 'db') });
  await migrateDatabase(database);
  const logger = pino({ level: 'warn' });
  const ctx = await createContext({ config, database, logger, secrets: { adminToken: config.adminToken!, appSecret: config.appSecret! } });
  const queue = ctx.queue;
  const workers = opts.worker ? await startWorkerServices(ctx) : null;
  const app = await buildApp(ctx);
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

/** A project with `domain` verified through the bench DNS server; returns its secret key. */
export async function verifiedSender(ctx: AppContext, dns: TestDnsServer, domain: string): Promise<{ projectId: string; secretKey: string }> {
  const project = await createProject({ db: ctx.db, name: 'Bench' });
  const created = await createDomain({ ctx, projectId: project.id, domain });
  for (const r of created.records.filter((x) => x.type === 'TXT')) dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
  const verified = await verifyDomain({ ctx, projectId: project.id, id: created.id });
  if (verified.status !== 'VERIFIED') throw new Error('bench domain did not verify');
  return { projectId: project.id, secretKey: project.secretKey };
}

/** Runs `task` `total` times with `concurrency` in flight. */
export async function runPool(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) await task(next++);
  }));
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The ceiling of a send benchmark: nodemailer's SMTP pool alone pushing already signed messages; emails/s. */
export async function pushWithNodemailer(port: number, messages: { from: string; to: string; raw: Buffer }[]): Promise<number> {
  const transporter = nodemailer.createTransport({ pool: true, maxConnections: 5, host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  const started = performance.now();
  await runPool(messages.length, 20, async (i) => {
    const m = messages[i]!;
    await transporter.sendMail({ envelope: { from: m.from, to: [m.to] }, raw: m.raw });
  });
  const elapsed = performance.now() - started;
  transporter.close();
  return messages.length / (elapsed / 1000);
}
