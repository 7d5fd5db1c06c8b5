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
import { startHeraldProcess, type HeraldProcess } from './herald-process.ts';
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

/** `count` sends, 8 in flight: accepted requests per second; then waits until the sink has every message. */
async function round(herald: HeraldProcess, sink: SmtpSink, tag: string, count: number): Promise<number> {
  const before = sink.perRecipient.size;
  const started = performance.now();
  await runPool(count, 8, (i) => herald.api('POST', '/v1/send', sendBody(`${tag}-${i}@dest.test`, i)));
  const rate = count / ((performance.now() - started) / 1000);
  await until(() => sink.perRecipient.size - before >= count, `${tag} delivered`, 1_800_000, 20);
  return rate;
}

/** `count` POST /v1/track calls, 16 in flight, each naming a new address: requests per second. */
async function trackRound(herald: HeraldProcess, tag: string, count: number): Promise<number> {
  const started = performance.now();
  await runPool(count, 16, (i) => herald.api('POST', '/v1/track', { email: `${tag}-${i}@dest.test`, event: 'viewed' }));
  return count / ((performance.now() - started) / 1000);
}

interface Figures {
  kind: DbKind;
  on: number[];
  off: number[];
  trackOn: number[];
  trackOff: number[];
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
    const on: number[] = [];
    const off: number[] = [];
    const trackOn: number[] = [];
    const trackOff: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      on.push(await round(logged, sink, `${kind}-on${r}`, SENDS));
      off.push(await round(unlogged, sink, `${kind}-off${r}`, SENDS));
      trackOn.push(await trackRound(logged, `${kind}-on${r}`, TRACKS));
      trackOff.push(await trackRound(unlogged, `${kind}-off${r}`, TRACKS));
      console.error(
        `[request-log ${kind}] round ${r + 1}: send on ${fmt(on[r]!)}/s, off ${fmt(off[r]!)}/s; ` +
          `track on ${fmt(trackOn[r]!)}/s, off ${fmt(trackOff[r]!)}/s`,
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

const mean = (values: number[]) => values.reduce((a, b) => a + b) / values.length;
const change = (on: number[], off: number[]) => {
  const pct = (mean(on) / mean(off) - 1) * 100;
  return `${pct >= 0 ? '+' : ''}${fmt(pct, 1)} %`;
};

const range = (values: number[]) => `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;

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
      console.log(
        `\n${kind}: /v1/send with the log ${range(f.on)} requests/s, without ${range(f.off)} requests/s ` +
          `(means ${change(f.on, f.off)}); ${fmt(f.logged)} of ${fmt(f.sent)} sends logged\n` +
          `${kind}: /v1/track with the log ${range(f.trackOn)} requests/s, without ${range(f.trackOff)} requests/s ` +
          `(means ${change(f.trackOn, f.trackOff)})`,
      );
    }
  } finally {
    await dns.close();
  }
}
