/**
 * Workflows at volume, through a real `herald serve` process (API + worker) on PostgreSQL, to a local SMTP sink
 * at unlimited send rate: BENCH_CONTACTS (default 10,000) contacts each fire the trigger of a 3-step workflow
 * (SEND_EMAIL, DELAY 1s, SEND_EMAIL) through POST /v1/track at 50 in flight. Prints executions completed per
 * second (first event to last execution COMPLETED), the median and p99 lag from an event's request to its
 * first email at the sink, and the process's peak RSS (/proc VmHWM). Then, with the queues empty, 100 more
 * contacts fire one event every 100 ms: the same lag without a backlog. BENCH_ENGINE_ONLY=1 replaces the two
 * SEND_EMAIL steps with UPDATE_CONTACT, to see the engine without the delivery path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, spawnHerald, type HeraldChild } from '../test/support/child.ts';
import { until } from '../test/support/until.ts';
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import { admin, fmt, percentile, PG_URL, postgresAvailable, runPool } from './support.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const SENDER = 'hello@flows.bench.test';
const ENGINE_ONLY = process.env.BENCH_ENGINE_ONLY === '1';

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

export default async function run(): Promise<void> {
  if (!(await postgresAvailable())) throw new Error(`PostgreSQL at ${PG_URL} does not answer`);
  const dns = await startDnsServer({});
  const sink = await startSmtpSink();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-workflows-'));
  const port = await freePort();
  const dbName = `herald_bench_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_TOKEN,
    APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop',
    SMTP_URL: sink.url,
    DNS_SERVERS: dns.address,
    SEND_RATE_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'https://mail.flows.bench.test',
    DATABASE_URL: url.toString(),
  };
  let herald: HeraldChild | null = null;
  const api = async (method: string, route: string, body?: unknown, key = ADMIN_TOKEN) => {
    const res = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return text ? (JSON.parse(text) as { data: any }).data : null;
  };
  try {
    herald = await spawnHerald('serve', env, undefined, { built: true });
    const key = (await api('POST', '/admin/projects', { name: 'bench' })).secretKey as string;
    const domain = await api('POST', '/domains', { domain: 'flows.bench.test' }, key);
    for (const r of domain.records.filter((x: { type: string }) => x.type === 'TXT'))
      dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    await api('POST', `/domains/${domain.id}/verify`, undefined, key);
    const template = await api(
      'POST',
      '/templates',
      {
        name: 'w',
        type: 'TRANSACTIONAL',
        subject: 'Hello {{ n }}',
        body: '<p>Hello {{ n }}, step {{ step }}</p>',
        from: SENDER,
      },
      key,
    );
    const workflow = await api(
      'POST',
      '/workflows',
      {
        name: 'bench',
        enabled: true,
        trigger: { type: 'EVENT', event: 'bench_signup' },
        steps: ENGINE_ONLY
          ? [
              { type: 'UPDATE_CONTACT', data: { step: 1 } },
              { type: 'DELAY', duration: '1s' },
              { type: 'UPDATE_CONTACT', data: { step: 2 } },
            ]
          : [
              { type: 'SEND_EMAIL', templateId: template.id, data: { step: 1 } },
              { type: 'DELAY', duration: '1s' },
              { type: 'SEND_EMAIL', templateId: template.id, data: { step: 2 } },
            ],
      },
      key,
    );

    const firedAt = new Map<string, number>();
    const firstMailAt = new Map<string, number>();
    sink.clear();
    const started = Date.now();
    await runPool(CONTACTS, 50, async (i) => {
      const email = `user${i}@dest.bench.test`;
      firedAt.set(email, Date.now());
      await api('POST', '/v1/track', { email, event: 'bench_signup', data: { n: i } }, key);
    });
    const fired = Date.now();
    let completedAt = 0;
    await until(
      async () => {
        for (const m of sink.messages)
          if (!firstMailAt.has(m.to[0]!)) firstMailAt.set(m.to[0]!, m.receivedAt.getTime());
        const done = await api('GET', `/workflows/${workflow.id}/executions?status=COMPLETED&limit=1`, undefined, key);
        if (done.total < CONTACTS) return false;
        completedAt = Date.now();
        return true;
      },
      'every execution completed',
      1_800_000,
      250,
    );
    if (!ENGINE_ONLY) await until(() => sink.messages.length >= 2 * CONTACTS, 'every email at the sink', 600_000, 100);
    for (const m of sink.messages) if (!firstMailAt.has(m.to[0]!)) firstMailAt.set(m.to[0]!, m.receivedAt.getTime());
    const lags = ENGINE_ONLY
      ? [0]
      : [...firedAt].map(([email, at]) => firstMailAt.get(email)! - at).sort((a, b) => a - b);
    const peak = peakRssMb(herald.pid);
    const delivered = sink.messages.length;
    const rate = CONTACTS / ((completedAt - started) / 1000);
    // Unloaded: one event every 100 ms, nothing queued before them.
    const idleLags: number[] = [];
    if (!ENGINE_ONLY) {
      const seen = sink.messages.length;
      const idleFired = new Map<string, number>();
      for (let i = 0; i < 100; i++) {
        const email = `idle${i}@dest.bench.test`;
        idleFired.set(email, Date.now());
        await api('POST', '/v1/track', { email, event: 'bench_signup', data: { n: i } }, key);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const idleFirst = new Map<string, number>();
      await until(
        () => {
          for (const m of sink.messages.slice(seen))
            if (!idleFirst.has(m.to[0]!)) idleFirst.set(m.to[0]!, m.receivedAt.getTime());
          return idleFirst.size >= idleFired.size;
        },
        'the unloaded first emails',
        120_000,
        50,
      );
      for (const [email, at] of idleFired) idleLags.push(idleFirst.get(email)! - at);
      idleLags.sort((a, b) => a - b);
    }
    process.stdout.write(
      [
        '',
        `Workflows on PostgreSQL: ${fmt(CONTACTS)} contacts fire the trigger ` +
          `of ${ENGINE_ONLY ? 'UPDATE_CONTACT → DELAY 1s → UPDATE_CONTACT' : 'SEND_EMAIL → DELAY 1s → SEND_EMAIL'} ` +
          `(one herald serve process, SMTP sink, SEND_RATE_PER_SECOND=0)`,
        `events fired in ${fmt((fired - started) / 1000, 1)} s (50 in flight); ` +
          `every execution COMPLETED after ${fmt((completedAt - started) / 1000, 1)} ` +
          `s; ${fmt(delivered)} messages at the sink`,
        `executions completed per second   ${fmt(rate, 0)}`,
        `event → first email, median       ${fmt(percentile(lags, 50))} ms`,
        `event → first email, p99          ${fmt(percentile(lags, 99))} ms`,
        `peak RSS of the herald process    ${fmt(peak)} MB`,
        ...(idleLags.length > 0
          ? [
              `unloaded (1 event / 100 ms): event → first email median ${fmt(percentile(idleLags, 50))} ` +
                `ms, p99 ${fmt(percentile(idleLags, 99))} ms`,
            ]
          : []),
        '',
      ].join('\n'),
    );
  } finally {
    await herald?.kill('SIGTERM');
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    await sink.close();
    await dns.close();
  }
}
