/**
 * `npm run bench -- request-log`: what the request log costs the hottest API paths. Two `herald serve` processes on
 * the same kind of database and the same SMTP sink, one with the log (the default) and one with REQUEST_LOG=false; in
 * alternating rounds, each takes BENCH_LOG_SENDS (1,000) single-recipient POST /v1/send requests, 8 in flight, then
 * BENCH_LOG_TRACKS (2,000) POST /v1/track calls, 16 in flight, and the requests per second are compared. Before the
 * next round the previous round's mail is delivered, so no round pays for another's sending. After the rounds, the
 * logged process's log holds one entry per send.
 * BENCH_DB=postgres|pglite runs one database only.
 */
import { startDnsServer, type TestDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { until } from '../test/support/until.ts';
import { keepBody } from '../src/modules/logs/logs.redact.ts';
import { cpuSecondsOf, startHeraldProcess, type HeraldProcess } from './herald-process.ts';
import { benchKinds, fmt, machineLine, runPool, type DbKind } from './support.ts';

const SENDS = Number(process.env.BENCH_LOG_SENDS ?? 1000);
const TRACKS = Number(process.env.BENCH_LOG_TRACKS ?? 2000);
const ROUNDS = 3;
const WARM_UP = 100;
const DOMAIN = 'log.bench.test';

const sendBody = (to: string, i: number) => ({
  to,
  from: `hello@${DOMAIN}`,
  subject: 'Order {{order}} shipped',
  body: '<h1>Hi {{email}}</h1><p>Your order {{order}} is on its way.</p>',
  data: { order: i },
});

/** Requests per second, and the Herald process's CPU per request (ms; with PGlite, the database's too). */
interface Measured {
  rate: number;
  cpuMs: number;
}

/** `count` sends, 8 in flight: accepted requests per second; then waits until the sink has every message. */
async function round(herald: HeraldProcess, sink: SmtpSink, tag: string, count: number): Promise<Measured> {
  const before = sink.perRecipient.size;
  const cpu = cpuSecondsOf(herald.pid());
  const started = performance.now();
  await runPool(count, 8, (i) => herald.api('POST', '/v1/send', sendBody(`${tag}-${i}@dest.test`, i)));
  const rate = count / ((performance.now() - started) / 1000);
  await until(() => sink.perRecipient.size - before >= count, `${tag} delivered`, 1_800_000, 20);
  return { rate, cpuMs: ((cpuSecondsOf(herald.pid()) - cpu) * 1000) / count };
}

/** `count` POST /v1/track calls, 16 in flight, each naming a new address: requests per second. */
async function trackRound(herald: HeraldProcess, tag: string, count: number): Promise<Measured> {
  const cpu = cpuSecondsOf(herald.pid());
  const started = performance.now();
  await runPool(count, 16, (i) => herald.api('POST', '/v1/track', { email: `${tag}-${i}@dest.test`, event: 'viewed' }));
  const rate = count / ((performance.now() - started) / 1000);
  return { rate, cpuMs: ((cpuSecondsOf(herald.pid()) - cpu) * 1000) / count };
}

interface Figures {
  kind: DbKind;
  on: Measured[];
  off: Measured[];
  trackOn: Measured[];
  trackOff: Measured[];
  logged: number;
  sent: number;
}

async function runOn(kind: DbKind, dns: TestDnsServer): Promise<Figures> {
  const sink = await startSmtpSink();
  const start = (log: boolean) =>
    startHeraldProcess({ kind, sink, dns, domain: DOMAIN, contacts: 0, env: { REQUEST_LOG: String(log) } });
  const logged = await start(true);
  const unlogged = await start(false);
  try {
    await round(logged, sink, `${kind}-warm-on`, WARM_UP);
    await round(unlogged, sink, `${kind}-warm-off`, WARM_UP);
    await trackRound(logged, `${kind}-warm-on`, WARM_UP);
    await trackRound(unlogged, `${kind}-warm-off`, WARM_UP);
    const on: Measured[] = [];
    const off: Measured[] = [];
    const trackOn: Measured[] = [];
    const trackOff: Measured[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      on.push(await round(logged, sink, `${kind}-on${r}`, SENDS));
      off.push(await round(unlogged, sink, `${kind}-off${r}`, SENDS));
      trackOn.push(await trackRound(logged, `${kind}-on${r}`, TRACKS));
      trackOff.push(await trackRound(unlogged, `${kind}-off${r}`, TRACKS));
      const show = (m: Measured) => `${fmt(m.rate)}/s ${fmt(m.cpuMs, 2)} ms CPU`;
      console.error(
        `[request-log ${kind}] round ${r + 1}: send on ${show(on[r]!)}, off ${show(off[r]!)}; ` +
          `track on ${show(trackOn[r]!)}, off ${show(trackOff[r]!)}`,
      );
    }
    const sent = WARM_UP + ROUNDS * SENDS;
    const total = await until(
      async () => {
        const page = (await logged.api('GET', '/logs?path=/v1/send&limit=1')) as { total: number };
        return page.total >= sent ? page.total : null;
      },
      'every send in the log',
      60_000,
      200,
    );
    return { kind, on, off, trackOn, trackOff, logged: total, sent };
  } finally {
    await logged.close();
    await unlogged.close();
    await sink.close();
  }
}

/**
 * The capture's own CPU per request, in this process: the send's request body and its answer kept (redacted, within
 * the 10 KB budget), median of 3 runs of 20,000.
 */
function captureMicroseconds(): number {
  const answer = JSON.stringify({
    success: true,
    data: { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', status: 'QUEUED', to: 'ann@dest.test', messageId: '<x@y>' },
  });
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    for (let i = 0; i < 20_000; i++) {
      keepBody(sendBody(`ann${i}@dest.test`, i));
      keepBody(JSON.parse(answer));
    }
    runs.push(((performance.now() - started) * 1000) / 20_000);
  }
  return runs.sort((a, b) => a - b)[1]!;
}

const mean = (values: Measured[], field: keyof Measured) => values.reduce((a, m) => a + m[field], 0) / values.length;
const change = (on: Measured[], off: Measured[], field: keyof Measured) => {
  const pct = (mean(on, field) / mean(off, field) - 1) * 100;
  return `${pct >= 0 ? '+' : ''}${fmt(pct, 1)} %`;
};

const range = (values: number[], digits = 0) =>
  `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;

export default async function run(): Promise<void> {
  console.log(`request log benchmark · ${await machineLine()}`);
  console.log(
    `POST /v1/send, one recipient, ${fmt(SENDS)} requests per round, 8 in flight, ${ROUNDS} rounds alternating ` +
      `between the process with the log and the one without (REQUEST_LOG=false), local SMTP sink; then ` +
      `${fmt(TRACKS)} POST /v1/track calls per round, 16 in flight`,
  );
  console.log(`capture of one /v1/send's bodies: ${fmt(captureMicroseconds(), 1)} µs of CPU`);
  const dns = await startDnsServer({});
  try {
    for (const kind of await benchKinds()) {
      const f = await runOn(kind, dns);
      const line = (path: string, on: Measured[], off: Measured[]) =>
        `${kind}: ${path} with the log ${range(on.map((m) => m.rate))} requests/s, ` +
        `${range(
          on.map((m) => m.cpuMs),
          2,
        )} ms CPU each; without ${range(off.map((m) => m.rate))} requests/s, ` +
        `${range(
          off.map((m) => m.cpuMs),
          2,
        )} ms CPU each (means: ${change(on, off, 'rate')} requests/s, ` +
        `${change(on, off, 'cpuMs')} CPU)`;
      console.log(
        `\n${line('/v1/send', f.on, f.off)}; ${fmt(f.logged)} of ${fmt(f.sent)} sends logged\n` +
          line('/v1/track', f.trackOn, f.trackOff),
      );
    }
  } finally {
    await dns.close();
  }
}
