/**
 * Herald as real processes for benches, on a fresh embedded or PostgreSQL database, talking to the bench's
 * SMTP sink and DNS server: a project with a verified sender domain, contacts imported through the CSV import,
 * and the HTTP API. Either one `herald serve`, or (PostgreSQL only) one `herald api` and N `herald worker`s.
 * Benches reach Herald through HTTP and signals only; `query` reads the database directly (counts and sizes;
 * on the embedded database only while the process is stopped, since one process at a time may open it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { decryptPrivateKey } from '../src/mail/dkim-keys.ts';
import { freePort, spawnHerald, type HeraldChild } from '../test/support/child.ts';
import { until } from '../test/support/until.ts';
import type { TestDnsServer } from '../test/support/dns-server.ts';
import type { SmtpSink } from '../test/support/smtp-sink.ts';
import { createBenchDatabase, type DbKind } from './support.ts';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** The herald processes' APP_SECRET: what signs their links (the retention bench finds links as they would). */
export const APP_SECRET = 'bench-app-secret-0123456789abcdefghijklmnop';

/** The address of imported contact `i`. */
export const contactAddress = (i: number) => `reader${i}@dest.test`;

/** What nodemailer needs to sign with the domain's own DKIM key. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export interface HeraldOptions {
  kind: DbKind;
  sink: SmtpSink;
  dns: TestDnsServer;
  domain: string;
  /** Contacts `reader<i>@dest.test` (or `address(i)`) with `firstName` and `n`, imported as one CSV. */
  contacts: number;
  /** The address of contact `i` (default `contactAddress`). */
  address?: (i: number) => string;
  /** 0 (default): one `herald serve`. N > 0: one `herald api` and N `herald worker` processes (PostgreSQL only). */
  workers?: number;
  env?: Record<string, string>;
}

export interface HeraldProcess {
  kind: DbKind;
  /** The project's secret key. */
  key: string;
  /** The `serve` (or `api`) process. */
  pid(): number;
  /** The `worker` processes still running, in start order (killed ones are gone). */
  workerPids(): number[];
  /** JSON in and out with the project's key; a string body goes as text/csv. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  api(method: string, url: string, body?: unknown): Promise<any>;
  /** Stops and starts every process again (peak RSS starts afresh). */
  restart(): Promise<void>;
  /** SIGTERM to every process, waiting for them to exit. */
  stop(): Promise<void>;
  /** Starts whichever process is not running (after stop(), kill() or killWorker()). */
  start(): Promise<void>;
  /** Sends `signal` to the serve (or api) process and waits until it is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Sends `signal` to worker `index` (start order) and waits until it is gone. */
  killWorker(index: number, signal: NodeJS.Signals): Promise<void>;
  /** The PostgreSQL database Herald runs on (undefined: the embedded one). */
  databaseUrl: string | undefined;
  /** Reads the database directly (embedded database: only while stopped). */
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** The sender domain's DKIM key as Herald stores it (a direct read, decrypted with the bench's APP_SECRET). */
  dkimKey(): Promise<DkimKey>;
  close(): Promise<void>;
}

/** The campaign benches' newsletter: a greeting, a paragraph with two links to `domain`, the unsubscribe link. */
export function newsletter(domain: string): { subject: string; body: string } {
  return {
    subject: 'News for {{ firstName }}',
    body:
      '<html><body><h1>Hello {{ firstName }}</h1><p>This month: <a ' +
      `href="https://${domain}/a">an article</a> and ` +
      `<a href="https://${domain}/b">another one</a>.</p><p><a href="{{ ` +
      'unsubscribeUrl }}">Unsubscribe</a></p></body></html>',
  };
}

/**
 * A real newsletter's size: the newsletter above grown to about `kb` KB of HTML with a story (a heading, a paragraph
 * with two links and an image) every ~1.5 KB, so that link tracking and encoding work as hard as on real mail.
 */
export function bigNewsletter(domain: string, kb: number): { subject: string; body: string } {
  const small = newsletter(domain);
  const stories: string[] = [];
  let size = small.body.length;
  for (let i = 0; size < kb * 1024; i++) {
    const story =
      `<h2 style="font-family:Helvetica,Arial,sans-serif;font-size:20px;color:#222">Story ${i}: what changed this ` +
      `month</h2><p style="font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#333">` +
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore ' +
      'magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea ' +
      `commodo consequat. <a href="https://${domain}/story/${i}?utm_source=newsletter">Read the story</a> or ` +
      `<a href="https://${domain}/topics/${i % 7}">see the topic</a>.</p><img src="https://${domain}/img/${i}.jpg" ` +
      `width="560" height="280" alt="Story ${i}" style="display:block;border:0;max-width:100%">\n`;
    stories.push(story);
    size += story.length;
  }
  return { subject: small.subject, body: small.body.replace('</body>', `${stories.join('')}</body>`) };
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU seconds (user + system, every thread) a process has used so far, from /proc (clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used so far by every PostgreSQL server process on this machine (from /proc). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      total += cpuSecondsOf(Number(entry));
    } catch {
      // The process ended while it was being read.
    }
  }
  return total;
}

/** The contacts CSV: `email,firstName,n`. */
function contactsCsv(count: number, address: (i: number) => string): string {
  const lines = ['email,firstName,n'];
  for (let i = 0; i < count; i++) lines.push(`${address(i)},Reader ${i},${i}`);
  return `${lines.join('\n')}\n`;
}

/** BENCH_HERALD_ENV (`NAME=value,NAME=value`): settings for every herald process of a bench, to try one out. */
function extraEnv(): Record<string, string> {
  const pairs = (process.env.BENCH_HERALD_ENV ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('='));
  return Object.fromEntries(pairs.map(([name, ...value]) => [name!.trim(), value.join('=')]));
}

/** Starts Herald with a project whose sender domain is verified, and `contacts` contacts imported. */
export async function startHeraldProcess(opts: HeraldOptions): Promise<HeraldProcess> {
  const workers = opts.workers ?? 0;
  if (workers > 0 && opts.kind !== 'postgres') throw new Error('separate worker processes need PostgreSQL');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  const port = await freePort();
  const { databaseUrl, drop } = await createBenchDatabase(opts.kind);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_TOKEN,
    APP_SECRET,
    SMTP_URL: opts.sink.url,
    DNS_SERVERS: opts.dns.address,
    SEND_RATE_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `https://mail.${opts.domain}`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extraEnv(),
    ...opts.env,
  };
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : null;
  pool?.on('error', () => {});
  let main: HeraldChild | null = null;
  let workerChildren: (HeraldChild | null)[] = [];
  let key = ADMIN_TOKEN;
  let domainId = '';

  // Starts whichever of the processes is not running.
  const start = async () => {
    main ??= await spawnHerald(workers > 0 ? 'api' : 'serve', env, undefined, { built: true });
    if (workerChildren.length === 0) workerChildren = Array.from({ length: workers }, () => null);
    workerChildren = await Promise.all(
      workerChildren.map((child) => child ?? spawnHerald('worker', env, undefined, { built: true })),
    );
  };
  const stop = async () => {
    await Promise.all([main, ...workerChildren].map((child) => child?.kill('SIGTERM')));
    main = null;
    workerChildren = [];
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const type = typeof body === 'string' ? 'text/csv' : 'application/json';
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': type }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: unknown }).data : null;
  };
  const query = async <R>(text: string, params: unknown[] = []): Promise<R[]> => {
    if (pool) return (await pool.query(text, params)).rows as R[];
    if (main) throw new Error('the embedded database can be read only while Herald is stopped');
    const embedded = await PGlite.create({ dataDir: path.join(dataDir, 'db') });
    try {
      return (await embedded.query<R>(text, params)).rows;
    } finally {
      await embedded.close();
    }
  };
  const close = async () => {
    await stop();
    await pool?.end();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await start();
    key = ((await api('POST', '/admin/projects', { name: 'bench' })) as { secretKey: string }).secretKey;
    const domain = (await api('POST', '/domains', { domain: opts.domain })) as {
      id: string;
      records: { type: string; name: string; value: string; values?: string[] }[];
    };
    domainId = domain.id;
    for (const r of domain.records.filter((x) => x.type === 'TXT'))
      opts.dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    await api('POST', `/domains/${domain.id}/verify`);
    if (opts.contacts > 0) {
      const upload = (await api(
        'POST',
        '/contacts/import',
        contactsCsv(opts.contacts, opts.address ?? contactAddress),
      )) as { id: string };
      await until(
        async () => {
          const state = (await api('GET', `/contacts/import/${upload.id}`)) as { status: string; failure?: string };
          if (state.status === 'failed') throw new Error(`the contact import failed: ${state.failure}`);
          return state.status === 'completed';
        },
        'the import',
        1_200_000,
        500,
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    kind: opts.kind,
    key,
    pid: () => main!.pid,
    workerPids: () => workerChildren.flatMap((child) => (child ? [child.pid] : [])),
    api,
    async restart() {
      await stop();
      await start();
    },
    stop,
    start,
    async kill(signal) {
      await main?.kill(signal);
      main = null;
    },
    async killWorker(index, signal) {
      await workerChildren[index]?.kill(signal);
      workerChildren[index] = null;
    },
    databaseUrl,
    query,
    async dkimKey() {
      const [row] = await query<{ id: string; domain: string; dkim_selector: string; dkim_private_key: string }>(
        'SELECT id, domain, dkim_selector, dkim_private_key FROM domains WHERE id = $1',
        [domainId],
      );
      if (!row) throw new Error('the bench domain is not in the database');
      return {
        domainName: row.domain,
        keySelector: row.dkim_selector,
        privateKey: decryptPrivateKey(row.dkim_private_key, APP_SECRET, row.id),
      };
    },
    close,
  };
}
