// Crash tests' harness: Herald as child processes (test/support/child.ts) that a test kills and restarts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Executor } from '../../src/db/client.ts';
import { ADMIN_TOKEN, APP_SECRET, createTestApp, type TestApp } from './app.ts';
import { freePort, spawnHerald, type HeraldChild } from './child.ts';
import { createTestDatabase, testDatabaseKind } from './database.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from './dns-server.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

/**
 * Herald as child processes for crash tests, on a fresh database of the run's kind:
 *
 *   const h = await startCrashHarness({ SMTP_URL, ... }, { split: true });
 *   await h.start();                 // the sending process
 *   await h.api('POST', '/admin/projects', { name: 'x' });
 *   await h.kill('SIGKILL');         // and h.start() again
 *   await h.query((db) => …);        // the database (on PGlite: while no child holds it)
 *
 * `split`: on PostgreSQL the API is this test process and a `herald worker` child sends; otherwise (and always on
 * PGlite, where one process owns the data folder) a `herald serve` child does both, answering `api` over HTTP.
 */
export interface CrashHarness {
  /** The child's HTTP address (null when split: the API is this process). */
  url: string | null;
  api(
    method: string,
    url: string,
    payload?: unknown,
    auth?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Starts the child (again), with `extraEnv` over the harness's environment. */
  start(extraEnv?: Record<string, string>): Promise<void>;
  /** Sends `signal` to the child and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Waits until the child is gone by itself (HERALD_TEST_FAULT), at most `limitMs`. */
  waitForExit(limitMs: number): Promise<void>;
  query<T>(fn: (db: Executor) => Promise<T>): Promise<T>;
  /** A new project with `domain` verified through `dns`: its secret key as an Authorization value. */
  projectWithDomain(dns: Pick<TestDnsServer, 'setRecords'>, domain: string): Promise<string>;
  close(): Promise<void>;
}

export async function startCrashHarness(
  env: Record<string, string>,
  opts: { split?: boolean } = {},
): Promise<CrashHarness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-crash-'));
  const base = { ADMIN_TOKEN, APP_SECRET, LOG_LEVEL: 'warn', ...env, DATA_DIR: dataDir };
  let child: HeraldChild | null = null;
  const t: TestApp | null = opts.split && testDatabaseKind === 'postgres' ? await createTestApp({ env: base }) : null;
  const db = !t && testDatabaseKind === 'postgres' ? await createTestDatabase() : null;
  const port = t ? 0 : await freePort();
  const childEnv = t
    ? { ...base, DATABASE_URL: t.testDb.location }
    : { ...base, PORT: String(port), HOST: '127.0.0.1', ...(db ? { DATABASE_URL: db.location } : {}) };
  const harness: CrashHarness = {
    url: t ? null : `http://127.0.0.1:${port}`,
    async api(method, url, payload, auth, headers = {}) {
      const all = {
        authorization: auth ?? `Bearer ${ADMIN_TOKEN}`,
        ...headers,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      };
      if (t) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: all,
          ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
        });
        return {
          status: res.statusCode,
          headers: new Headers(res.headers as Record<string, string>),
          body: res.body ? res.json() : null,
        };
      }
      const res = await fetch(`http://127.0.0.1:${port}${url}`, {
        method,
        headers: all,
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    },
    async start(extraEnv = {}) {
      child = await spawnHerald(t ? 'worker' : 'serve', { ...childEnv, ...extraEnv });
    },
    async kill(signal = 'SIGKILL') {
      await child?.kill(signal);
      child = null;
    },
    async waitForExit(limitMs) {
      await child?.exited(limitMs);
      child = null;
    },
    async query(fn) {
      if (t) return fn(t.ctx.db);
      // A second PGlite on the folder a live child owns would read pages the child has not written yet (and could
      // write to it while recovering): refuse rather than answer from a stale copy.
      if (!db && child)
        throw new Error('h.query on PGlite while a child holds the data folder: kill it first, or ask over h.api');
      const database = await openDatabase(db ? { databaseUrl: db.location } : { pgliteDir: path.join(dataDir, 'db') });
      try {
        return await fn(database.db);
      } finally {
        await database.close();
      }
    },
    async projectWithDomain(dns, domain) {
      const auth = `Bearer ${(await harness.api('POST', '/admin/projects', { name: domain })).body.data.secretKey}`;
      const created = (await harness.api('POST', '/domains', { domain }, auth)).body.data;
      publishDomainRecords(dns, created.records);
      const verified = await harness.api('POST', `/domains/${created.id}/verify`, undefined, auth);
      if (verified.body?.data?.status !== 'VERIFIED')
        throw new Error(`verify ${domain}: ${JSON.stringify(verified.body)}`);
      return auth;
    },
    async close() {
      await child?.kill('SIGTERM');
      await t?.close();
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** What a crash test's hooks start: a DNS server, an SMTP sink (unless `sink: false`) and the harness. */
export interface CrashWorld {
  readonly dns: TestDnsServer;
  readonly sink: SmtpSink;
  readonly h: CrashHarness;
}

/**
 * Registers a describe block's beforeAll/afterAll for a crash test: starts a DNS server and an SMTP sink, then the
 * harness with `DNS_SERVERS` and `SMTP_URL` pointing at them over `env` (a function when it must await, e.g. a
 * free port), and closes all three after. Read the parts inside the tests: `const { h, sink, dns } = world;`.
 */
export function crashWorld(
  env: Record<string, string> | (() => Promise<Record<string, string>>),
  opts: { split?: boolean; sink?: boolean } = {},
): CrashWorld {
  let parts: { dns: TestDnsServer; sink: SmtpSink | null; h: CrashHarness | null } | null = null;
  beforeAll(async () => {
    const dns = await startDnsServer({});
    const sink = opts.sink === false ? null : await startSmtpSink();
    parts = { dns, sink, h: null };
    const own = typeof env === 'function' ? await env() : env;
    parts.h = await startCrashHarness(
      { DNS_SERVERS: dns.address, ...(sink ? { SMTP_URL: sink.url } : {}), ...own },
      { split: opts.split ?? false },
    );
  });
  afterAll(async () => {
    await parts?.h?.close();
    await parts?.sink?.close();
    await parts?.dns.close();
  });
  const ready = () => {
    if (!parts?.h) throw new Error('the crash world starts in beforeAll: read its parts inside a test');
    return parts;
  };
  return {
    get dns() {
      return ready().dns;
    },
    get sink() {
      const sink = ready().sink;
      if (!sink) throw new Error('this crash world has no SMTP sink');
      return sink;
    },
    get h() {
      return ready().h!;
    },
  };
}
