/**
 * A 20,000-recipient campaign through a real `herald serve` process (API + worker) to a local SMTP sink at
 * unlimited send rate, on the embedded database and on PostgreSQL: emails/s from the send request to the
 * last message in the sink, and the process's peak RSS during the send (/proc VmHWM; the process is
 * restarted after the contact import so the import does not count). Next to it, nodemailer's pool alone
 * pushing the same signed messages to the same sink. BENCH_RECIPIENTS changes the size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, spawnHerald, type HeraldChild } from '../test/support/child.ts';
import { startDnsServer, type TestDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { admin, fmt, PG_URL, postgresAvailable, pushWithNodemailer, type DbKind } from './support.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const SENDER = 'news@campaign.bench.test';

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function until(what: string, probe: () => Promise<boolean> | boolean, limitMs: number, everyMs = 50): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Runs the campaign on one database kind; returns the report line. */
async function runOn(kind: DbKind, sink: SmtpSink, dns: TestDnsServer): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-campaign-'));
  const port = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop',
    SMTP_URL: sink.url, DNS_SERVERS: dns.address, SEND_RATE_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn',
    PUBLIC_URL: 'https://mail.campaign.bench.test',
  };
  const dbName = kind === 'postgres' ? `herald_bench_${randomBytes(5).toString('hex')}` : null;
  if (dbName) {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  let herald: HeraldChild | null = null;
  const api = async (method: string, url: string, body?: unknown, key = ADMIN_TOKEN) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: any }).data : null; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  try {
    herald = await spawnHerald('serve', env);
    const key = (await api('POST', '/admin/projects', { name: 'bench' })).secretKey as string;
    const domain = await api('POST', '/domains', { domain: 'campaign.bench.test' }, key);
    for (const r of domain.records.filter((x: { type: string }) => x.type === 'TXT')) dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    await api('POST', `/domains/${domain.id}/verify`, undefined, key);
    const upload = await api('POST', '/contacts/import', Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `reader${i}@dest.test`, data: { firstName: `Reader ${i}`, n: i } })), key);
    await until('the import', async () => (await api('GET', `/contacts/import/${upload.id}`, undefined, key)).status === 'completed', 600_000, 500);
    const campaign = await api('POST', '/campaigns', {
      name: 'bench', audienceType: 'ALL', from: SENDER, fromName: 'Bench',
      subject: 'News for {{ firstName }}',
      body: '<html><body><h1>Hello {{ firstName }}</h1><p>This month: <a href="https://campaign.bench.test/a">an article</a> and '
        + '<a href="https://campaign.bench.test/b">another one</a>.</p><p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p></body></html>',
    }, key);
    // A fresh process for the send, so its peak RSS is the send's alone.
    await herald.kill('SIGTERM');
    herald = await spawnHerald('serve', env);
    const before = memoryOf(herald.pid);
    sink.clear();
    const started = performance.now();
    await api('POST', `/campaigns/${campaign.id}/send`, undefined, key);
    await until('every message', () => sink.messages.length >= RECIPIENTS, 1_800_000);
    const delivered = performance.now();
    await until('SENT', async () => (await api('GET', `/campaigns/${campaign.id}`, undefined, key)).status === 'SENT', 300_000, 200);
    const memory = memoryOf(herald.pid);
    const seconds = (delivered - started) / 1000;
    return `${kind.padEnd(9)} ${fmt(RECIPIENTS)} emails in ${fmt(seconds, 1)} s → ${fmt(RECIPIENTS / seconds)} emails/s `
      + `(SENT after ${fmt((performance.now() - started) / 1000, 1)} s); herald process RSS ${fmt(before.rss)} MB idle, peak ${fmt(memory.peak)} MB during the send`;
  } finally {
    await herald?.kill('SIGTERM');
    if (dbName) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<void> {
  const sink = await startSmtpSink();
  const dns = await startDnsServer({});
  const kinds: DbKind[] = ['pglite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])];
  const rows: string[] = [];
  try {
    for (const kind of kinds) rows.push(await runOn(kind, sink, dns));
    // The ceiling: nodemailer's SMTP pool alone sending the same signed messages to the same sink.
    const raws = sink.messages.map((m) => ({ from: m.from, to: m.to[0]!, raw: m.raw }));
    sink.clear();
    rows.push(`nodemailer pool alone (the same ${fmt(raws.length)} signed messages, same sink): ${fmt(await pushWithNodemailer(sink.port, raws))} emails/s`);
  } finally {
    await sink.close();
    await dns.close();
  }
  console.log(`\ncampaign benchmark: ${fmt(RECIPIENTS)} recipients, SEND_RATE_PER_SECOND=0, ${os.cpus().length} CPUs`);
  for (const row of rows) console.log(`  ${row}`);
}
