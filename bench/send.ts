/**
 * `npm run bench -- send`: POST /v1/send through a real `herald serve` process (SEND_RATE_PER_SECOND=0) to
 * the local SMTP sink, on PostgreSQL and PGlite, with nodemailer's pooled transport (its own process, the
 * domain's own DKIM key) sending the same messages to the same sink in the same run.
 *
 *   latency:    BENCH_LATENCY_SENDS (300) single-recipient requests one after another, nothing else running
 *               (10 more before them warm up, uncounted): from the request's start to the message's arrival
 *               at the sink, p50 and p99; the baseline sends the same messages one at a time (start → 250),
 *               warming up on the same 10.
 *   throughput: BENCH_EMAILS (2,000; 0 skips) in requests of 10 recipients, 8 in flight: accepted and
 *               delivered emails/s; the baseline sends the same messages 20 at a time.
 *   batch:      the same number of emails as POST /v1/send/batch calls of 100 single-recipient items, 4 in flight:
 *               delivered emails/s, beside the same baseline.
 * BENCH_DB=postgres|pglite runs one database only.
 */
import { startDnsServer, type TestDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { startHeraldProcess, type HeraldProcess } from './herald-process.ts';
import { until } from '../test/support/until.ts';
import {
  assertSignedOnceBy,
  BASELINE_SHAPE,
  baselineLatencies,
  baselineMessages,
  baselineThroughput,
} from './nodemailer-baseline.ts';
import { benchKinds, fmt, machineLine, percentile, runPool, type DbKind } from './support.ts';

const LATENCY_SENDS = Number(process.env.BENCH_LATENCY_SENDS ?? 300);
const WARM_UP = 10;
const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
const PER_REQUEST = 10;
const PER_BATCH = 100;
const DOMAIN = 'send.bench.test';

interface Latencies {
  p50: number;
  p99: number;
}

interface SendFigures {
  kind: DbKind;
  arrival: Latencies;
  answer: Latencies;
  baselineLatency: Latencies;
  throughput: { accepted: number; delivered: number; baseline: number; batch: number } | null;
}

const summarize = (values: number[]): Latencies => {
  const sorted = values.slice().sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

async function send(herald: HeraldProcess, to: string | string[], i: number): Promise<void> {
  await herald.api('POST', '/v1/send', sendBody(to, i));
}

/** Sequential single-recipient sends: request start → arrival at the sink, and request start → the API's answer. */
async function measureLatency(herald: HeraldProcess, sink: SmtpSink): Promise<{ arrival: number[]; answer: number[] }> {
  const arrival: number[] = [];
  const answer: number[] = [];
  for (let i = 0; i < WARM_UP + LATENCY_SENDS; i++) {
    const to = i < WARM_UP ? `warm${i}@dest.test` : `latency${i - WARM_UP}@dest.test`;
    const started = performance.now();
    await send(herald, to, i);
    const answered = performance.now();
    const message = await sink.waitForRecipient(to, 120_000);
    if (i < WARM_UP) continue;
    arrival.push(message.arrivedAt - started);
    answer.push(answered - started);
  }
  return { arrival, answer };
}

/** EMAILS recipients in requests of PER_REQUEST, 8 in flight: accepted and delivered emails/s. */
async function measureThroughput(
  herald: HeraldProcess,
  sink: SmtpSink,
): Promise<{ accepted: number; delivered: number }> {
  const requests = Math.ceil(EMAILS / PER_REQUEST);
  const before = sink.perRecipient.size;
  const started = performance.now();
  await runPool(requests, 8, (i) =>
    send(
      herald,
      Array.from({ length: PER_REQUEST }, (_, j) => `bulk${i * PER_REQUEST + j}@dest.test`),
      i,
    ),
  );
  const accepted = (requests * PER_REQUEST) / ((performance.now() - started) / 1000);
  await until(() => sink.perRecipient.size - before >= requests * PER_REQUEST, 'every message', 1_800_000, 20);
  return { accepted, delivered: (requests * PER_REQUEST) / ((performance.now() - started) / 1000) };
}

const sendBody = (to: string | string[], i: number) => ({
  to,
  from: `hello@${DOMAIN}`,
  subject: 'Order {{order}} shipped',
  body: '<h1>Hi {{email}}</h1><p>Your order {{order}} is on its way.</p>',
  data: { order: i },
});

/** EMAILS single-recipient messages in batch calls of PER_BATCH, 4 in flight: delivered emails/s. */
async function measureBatch(herald: HeraldProcess, sink: SmtpSink): Promise<number> {
  const calls = Math.ceil(EMAILS / PER_BATCH);
  const before = sink.perRecipient.size;
  const started = performance.now();
  await runPool(calls, 4, (c) =>
    herald.api(
      'POST',
      '/v1/send/batch',
      Array.from({ length: PER_BATCH }, (_, j) => sendBody(`batch${c * PER_BATCH + j}@dest.test`, c * PER_BATCH + j)),
    ),
  );
  await until(() => sink.perRecipient.size - before >= calls * PER_BATCH, 'every batch message', 1_800_000, 20);
  return (calls * PER_BATCH) / ((performance.now() - started) / 1000);
}

async function runOn(kind: DbKind, dns: TestDnsServer): Promise<SendFigures> {
  const sink = await startSmtpSink();
  const herald = await startHeraldProcess({ kind, sink, dns, domain: DOMAIN, contacts: 0 });
  try {
    const latency = await measureLatency(herald, sink);
    console.error(`[send ${kind}] latency measured`);
    const throughput = EMAILS > 0 ? await measureThroughput(herald, sink) : null;
    const batch = EMAILS > 0 ? await measureBatch(herald, sink) : 0;
    await herald.stop();
    const dkim = await herald.dkimKey();
    const received = baselineMessages(sink.messages);
    const ofLatency = received.filter((m) => /^(warm|latency)/.test(m.to[0]!));
    const ofThroughput = received.filter((m) => m.to[0]!.startsWith('bulk'));
    sink.clear();
    const baselineLatency = summarize(await baselineLatencies(sink.port, dkim, ofLatency, WARM_UP));
    assertSignedOnceBy(sink.messages[0]!.raw, dkim.domainName);
    const baseline = throughput ? (await baselineThroughput(sink.port, dkim, ofThroughput)).rate : 0;
    return {
      kind,
      arrival: summarize(latency.arrival),
      answer: summarize(latency.answer),
      baselineLatency,
      throughput: throughput ? { ...throughput, baseline, batch } : null,
    };
  } finally {
    await herald.close();
    await sink.close();
  }
}

function report(f: SendFigures): string[] {
  const lines = [
    `${f.kind}, one herald serve process:`,
    `  /v1/send → sink, one at a time     p50 ${fmt(f.arrival.p50, 1)} ` +
      `ms, p99 ${fmt(f.arrival.p99, 1)} ms (${fmt(LATENCY_SENDS)} sends ` +
      `after ${WARM_UP} warm-up${f.kind === 'postgres' ? '; target p50 ≤ 50 ms' : ''})`,
    `  /v1/send answered                  p50 ${fmt(f.answer.p50, 1)} ms, p99 ${fmt(f.answer.p99, 1)} ms`,
    `  nodemailer baseline, one at a time p50 ${fmt(f.baselineLatency.p50, 1)} ` +
      `ms, p99 ${fmt(f.baselineLatency.p99, 1)} ms (the same messages; ` +
      `sendMail start → the sink's 250)`,
  ];
  if (f.throughput) {
    lines.push(
      `  /v1/send throughput                ${fmt(EMAILS)} emails, ${PER_REQUEST} ` +
        `per request, 8 requests in flight: accepted ${fmt(f.throughput.accepted)} ` +
        `emails/s, delivered ${fmt(f.throughput.delivered)} emails/s end ` +
        `to end`,
      `  nodemailer baseline, same messages ${fmt(f.throughput.baseline)} ` +
        `emails/s → ratio ${fmt(f.throughput.delivered / f.throughput.baseline, 2)}×`,
      `  /v1/send/batch throughput          ${fmt(EMAILS)} emails, ${PER_BATCH} ` +
        `per batch call, 4 calls in flight: delivered ${fmt(f.throughput.batch)} ` +
        `emails/s end to end → ${fmt(f.throughput.batch / f.throughput.baseline, 2)}× ` +
        `the baseline`,
    );
  }
  return lines;
}

export default async function run(): Promise<void> {
  console.log(`send benchmark · ${await machineLine()}`);
  console.log(`SEND_RATE_PER_SECOND=0, local SMTP sink; baseline: ${BASELINE_SHAPE}`);
  console.log(
    '(the sink, smtp-server, greets each new connection after a 100 ms early-talker ' +
      'pause: a send that opens a connection carries it)',
  );
  const kinds = await benchKinds();
  const dns = await startDnsServer({});
  const runs: SendFigures[] = [];
  try {
    for (const kind of kinds) {
      const figures = await runOn(kind, dns);
      runs.push(figures);
      console.log(`\n${report(figures).join('\n')}`);
    }
  } finally {
    await dns.close();
  }
  console.log('\nsend numbers side by side (request start → message at the sink, no other load):');
  for (const f of runs) {
    console.log(
      `  ${f.kind.padEnd(9)} p50 ${fmt(f.arrival.p50, 1).padStart(7)} ` +
        `ms, p99 ${fmt(f.arrival.p99, 1).padStart(7)} ms${f.kind === 'postgres' ? ' (p50 ≤ 50 ms)' : ''}; ` +
        `nodemailer alone p50 ${fmt(f.baselineLatency.p50, 1)} ms, p99 ${fmt(f.baselineLatency.p99, 1)} ms`,
    );
  }
}
