/**
 * A real `herald serve` process for benches, on a fresh embedded or PostgreSQL database, talking to the
 * bench's SMTP sink and DNS server: a project with a verified sender domain, contacts, and the HTTP API.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnHerald, type HeraldChild } from '../test/support/child.ts';
import type { TestDnsServer } from '../test/support/dns-server.ts';
import type { SmtpSink } from '../test/support/smtp-sink.ts';
import { createBenchDatabase, type DbKind } from './support.ts';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';

export interface HeraldProcess {
  /** The project's secret key. */
  key: string;
  pid(): number;
  api(method: string, url: string, body?: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Stops and starts the process again (its peak RSS starts afresh). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Polls until `probe` is true. */
export async function until(what: string, probe: () => Promise<boolean> | boolean, limitMs: number, everyMs = 50): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Starts `herald serve` with a project whose sender domain is verified, and `contacts` contacts imported. */
export async function startHeraldProcess(opts: { kind: DbKind; sink: SmtpSink; dns: TestDnsServer; domain: string; contacts: number; env?: Record<string, string> }): Promise<HeraldProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  const port = await freePort();
  const { databaseUrl, drop } = await createBenchDatabase(opts.kind);
  const env: Record<string, string> = {
    DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop',
    SMTP_URL: opts.sink.url, DNS_SERVERS: opts.dns.address, SEND_RATE_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn',
    PUBLIC_URL: `https://mail.${opts.domain}`, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...opts.env,
  };
  let child: HeraldChild | null = await spawnHerald('serve', env);
  let key = ADMIN_TOKEN;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: unknown }).data : null;
  };
  const close = async () => {
    await child?.kill('SIGTERM');
    child = null;
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    key = ((await api('POST', '/admin/projects', { name: 'bench' })) as { secretKey: string }).secretKey;
    const domain = (await api('POST', '/domains', { domain: opts.domain })) as { id: string; records: { type: string; name: string; value: string; values?: string[] }[] };
    for (const r of domain.records.filter((x) => x.type === 'TXT')) opts.dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    await api('POST', `/domains/${domain.id}/verify`);
    if (opts.contacts > 0) {
      const rows = Array.from({ length: opts.contacts }, (_, i) => ({ email: `reader${i}@dest.test`, data: { firstName: `Reader ${i}`, n: i } }));
      const upload = (await api('POST', '/contacts/import', rows)) as { id: string };
      await until('the import', async () => ((await api('GET', `/contacts/import/${upload.id}`)) as { status: string }).status === 'completed', 600_000, 500);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    key,
    pid: () => child!.pid,
    api,
    async restart() {
      await child?.kill('SIGTERM');
      child = await spawnHerald('serve', env);
    },
    close,
  };
}
