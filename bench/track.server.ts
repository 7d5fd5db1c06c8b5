/**
 * One target of bench/track.ts, in its own process so that serving and load generation do not share a
 * CPU: `http` (a bare node:http server), `pglite` or `postgres` (Herald's API as `herald api` runs it).
 * Sends `{url, key}` over IPC when listening; on `stop` closes, drops its database and exits.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime.ts';
import { createBenchDatabase } from './support.ts';

const [kind, variant] = (process.argv[2] ?? '').split(':');
const seedEvents = Number(process.env.BENCH_SEED_EVENTS ?? 0);

// BENCH_MEMORY_TRACE=file: the server's memory every 200 ms (RSS, V8 heap, external and array buffers, in MB).
if (process.env.BENCH_MEMORY_TRACE) {
  const file = `${process.env.BENCH_MEMORY_TRACE}.${kind}${variant ? `-${variant}` : ''}`;
  const mb = (n: number) => Math.round(n / 1048576);
  fs.writeFileSync(file, 'ms rss heapUsed external arrayBuffers\n');
  const start = Date.now();
  setInterval(() => {
    const m = process.memoryUsage();
    fs.appendFileSync(
      file,
      `${Date.now() - start} ${mb(m.rss)} ${mb(m.heapUsed)} ${mb(m.external)} ${mb(m.arrayBuffers)}\n`,
    );
  }, 200).unref();
}

function ready(url: string, key: string, stop: () => Promise<void>): void {
  process.on('message', (message) => {
    if (message === 'stop')
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
  process.send!({ url, key });
}

async function serveBare(): Promise<void> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { email: string };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({
          success: true,
          data: { contact: body.email, event: 'e', timestamp: new Date().toISOString() },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  ready(`http://127.0.0.1:${port}`, 'none', () => new Promise((resolve) => server.close(() => resolve())));
}

async function serveHerald(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-track-'));
  const { databaseUrl, drop } = await createBenchDatabase(kind === 'postgres' ? 'postgres' : 'pglite');
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'warn',
    // Every request comes from one address with one public key: the limits that guard a public key would answer
    // nearly all of them 429.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
    PUBLIC_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000000',
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const runtime = await startRuntime(config, 'api');
  const project = runtime.bootstrap!;
  // The baseline of the workflows trigger's cost: the same server with the events trigger switched off.
  if (variant === 'no-trigger')
    await runtime.ctx.db.execute(sql`ALTER TABLE events DISABLE TRIGGER events_start_workflows`);
  if (seedEvents > 0) {
    // An events table that already holds history: the hot path must not slow down with it.
    await runtime.ctx.db.execute(
      sql`INSERT INTO contacts (id, project_id, email) VALUES (gen_random_uuid(), ${project.id}, 'seed@bench.test')`,
    );
    await runtime.ctx.db.execute(sql`
      INSERT INTO events (id, project_id, contact_id, name, data, created_at)
      SELECT gen_random_uuid(), ${project.id}, c.id, 'seed_' || (g % 20), jsonb_build_object('n', g), now() - g *
        interval '1 second'
      FROM generate_series(1, ${seedEvents}) g, contacts c WHERE c.email = 'seed@bench.test'`);
    await runtime.ctx.db.execute(sql`ANALYZE`);
  }
  const { port } = runtime.app!.server.address() as { port: number };
  ready(`http://127.0.0.1:${port}`, project.publicKey, async () => {
    await runtime.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

await (kind === 'http' ? serveBare() : serveHerald());
