/**
 * `npm run bench -- transports` (PostgreSQL only): mail over more than one transport, through a real `herald serve`.
 *
 *   split:    BENCH_RECIPIENTS (20,000) contacts, half at a.test and half at b.test. One campaign sent through one
 *             project transport (an SMTP sink), then the same campaign on a fresh database routed by recipient
 *             domain over two transports (two sinks): emails/s and CPU per email of the serve process (every
 *             thread, from the send request to the last recipient) of each, and their ratio; every recipient must
 *             get exactly one message, at the sink its rule names, and each email must record that transport.
 *   failover: BENCH_FAILOVER_RECIPIENTS (6,000) contacts routed to relay A with relay B as its fallback; once a third
 *             of the messages reached A, A refuses connections (its open ones cut) and stays so. Messages lost and
 *             duplicated across A and B, the seconds from the kill to B's first message and to B's steady rate,
 *             the total time, and A's state and failover count as `GET /transports/{id}` tells them.
 * The instance's own transport (SMTP_URL) is a sink of its own that must receive nothing. BENCH_PART=split|failover
 * runs one part; BENCH_SPLIT_ROUNDS (1) repeats the split pair, alternating which layout goes first;
 * BENCH_TRANSPORTS_LIMIT_SECONDS (1,800) bounds each wait for delivery. Progress goes to stderr.
 */
import { startDnsServer, type TestDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { startHeraldProcess } from './herald-process.ts';
import { fmt, machineLine, postgresAvailable } from './support.ts';
import {
  addTransports,
  countAt,
  createCampaign,
  DOMAIN,
  notSent,
  recordedTransports,
  secondsBetween,
  sendAndSettle,
  type Receiver,
} from './transports.campaign.ts';
import {
  FAILOVER_RECIPIENTS,
  failoverLines,
  failoverRows,
  runFailover,
  type FailoverFigures,
} from './transports.failover.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
const SPLIT_ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 1);
const PART = process.env.BENCH_PART;
/** The split's goal: two transports cost at most this much more per email than one (CPU, and time). */
const SPLIT_MAX_COST = 1.1;

/** Contact `i` of the split: even ones at a.test, odd ones at b.test. */
const splitAddress = (i: number) => `reader${i}@${i % 2 === 0 ? 'a' : 'b'}.test`;

type Layout = 'one' | 'split';
const LAYOUT_NAME: Record<Layout, string> = { one: 'one transport', split: 'two transports by domain' };

interface SplitFigures {
  layout: Layout;
  delivered: number;
  seconds: number;
  cpuSeconds: number;
  /** Recipients with exactly one message, at the sink their rule names, and none anywhere else. */
  exact: number;
  missing: number;
  duplicates: number;
  /** Recipients with a message at a sink their rule does not name. */
  misrouted: number;
  /** SENT emails whose recorded transportId is not the one their rule names. */
  misrecorded: number;
  notSent: string;
}

/** Tallies each recipient against the sink its rule names. */
function checkSplit(layout: Layout, sinks: SmtpSink[], receivers: Receiver[]) {
  const counts = { delivered: 0, exact: 0, missing: 0, duplicates: 0, misrouted: 0 };
  for (let i = 0; i < RECIPIENTS; i++) {
    const address = splitAddress(i);
    const there = sinks[layout === 'split' ? i % 2 : 0]!.perRecipient.get(address) ?? 0;
    const anywhere = countAt(receivers, address);
    if (anywhere > 0) counts.delivered++;
    else counts.missing++;
    counts.duplicates += Math.max(0, anywhere - 1);
    if (anywhere > there) counts.misrouted++;
    if (there === 1 && anywhere === 1) counts.exact++;
  }
  return counts;
}

/** The routing of a layout: everything to the one transport, or each recipient domain to its own. */
function routingOf(layout: Layout, ids: string[]) {
  if (layout === 'one') return { rules: [], defaultTransportId: ids[0] };
  return {
    rules: [
      { match: { recipientDomain: 'a.test' }, transportId: ids[0] },
      { match: { recipientDomain: 'b.test' }, transportId: ids[1] },
    ],
    defaultTransportId: 'default',
  };
}

/** One campaign to RECIPIENTS contacts over one transport, or over two by recipient domain, on a fresh database. */
async function runSplit(layout: Layout, dns: TestDnsServer): Promise<SplitFigures> {
  const instanceSink = await startSmtpSink({ keepRaw: false });
  const sinks: SmtpSink[] = [];
  for (let i = 0; i < (layout === 'split' ? 2 : 1); i++) sinks.push(await startSmtpSink({ keepRaw: false }));
  const importStarted = performance.now();
  const herald = await startHeraldProcess({
    kind: 'postgres',
    sink: instanceSink,
    dns,
    domain: DOMAIN,
    contacts: RECIPIENTS,
    address: splitAddress,
  });
  try {
    console.error(
      `[transports ${LAYOUT_NAME[layout]}] ${fmt(RECIPIENTS)} contacts imported in ` +
        `${fmt(secondsBetween(importStarted, performance.now()), 1)} s`,
    );
    const ids = await addTransports(herald, sinks);
    await herald.api('PUT', '/routing', routingOf(layout, ids));
    const campaignId = await createCampaign(herald);
    // A fresh process for the send: the import's work stays out of its CPU.
    await herald.restart();
    const receivers = [instanceSink, ...sinks];
    const { started, allAt, cpuSeconds } = await sendAndSettle(herald, campaignId, receivers, RECIPIENTS);
    const recorded = await recordedTransports(herald, "split_part(to_email, '@', 2)");
    const expectedId = (domain: string) => (layout === 'split' && domain === 'b.test' ? ids[1] : ids[0]);
    return {
      layout,
      seconds: secondsBetween(started, allAt),
      cpuSeconds,
      ...checkSplit(layout, sinks, receivers),
      misrecorded: recorded.filter((r) => r.transport !== expectedId(r.key)).reduce((sum, r) => sum + r.n, 0),
      notSent: await notSent(herald),
    };
  } finally {
    await herald.close();
    for (const sink of [instanceSink, ...sinks]) await sink.close();
  }
}

const rateOf = (f: SplitFigures) => f.delivered / f.seconds;
const cpuPerEmail = (f: SplitFigures) => (f.cpuSeconds * 1000) / Math.max(1, f.delivered);

function splitLines(f: SplitFigures): string[] {
  return [
    `postgres, ${fmt(RECIPIENTS)} recipients (half at a.test, half at b.test), ${LAYOUT_NAME[f.layout]}:`,
    `  herald serve  ${fmt(f.delivered)} delivered in ${fmt(f.seconds, 1)} s → ${fmt(rateOf(f))} emails/s; ` +
      `CPU ${fmt(cpuPerEmail(f), 2)} ms per email (every thread)`,
    `  exactly once at its rule's sink ${fmt(f.exact)}; missing ${fmt(f.missing)}, duplicates ${fmt(f.duplicates)}, ` +
      `misrouted ${fmt(f.misrouted)}; SENT emails recording another transport ${fmt(f.misrecorded)}; not SENT: ` +
      f.notSent,
  ];
}

/** The split pairs (one transport, two) side by side with their ratio. */
function splitTable(splits: SplitFigures[]): string[] {
  const row = (name: string, rate: string, cpu: string, rest: string) =>
    `  ${name.padEnd(30)} ${rate.padStart(9)} ${cpu.padStart(13)}   ${rest}`;
  const lines = [row(`split, ${fmt(RECIPIENTS)} recipients`, 'emails/s', 'CPU ms/email', 'exactly once')];
  for (let i = 0; i + 1 < splits.length; i += 2) {
    const pair = splits.slice(i, i + 2);
    const one = pair.find((f) => f.layout === 'one')!;
    const split = pair.find((f) => f.layout === 'split')!;
    for (const f of [one, split])
      lines.push(row(LAYOUT_NAME[f.layout], fmt(rateOf(f)), fmt(cpuPerEmail(f), 2), `${fmt(f.exact)}`));
    const rate = rateOf(split) / rateOf(one);
    const cpu = cpuPerEmail(split) / cpuPerEmail(one);
    const within = rate >= 1 / SPLIT_MAX_COST && cpu <= SPLIT_MAX_COST;
    lines.push(
      row(
        'two / one',
        `${fmt(rate, 2)}×`,
        `${fmt(cpu, 2)}×`,
        `goal ≤ ${fmt((SPLIT_MAX_COST - 1) * 100)} % more per email: ${within ? 'met' : 'NOT met'}`,
      ),
    );
  }
  return lines;
}

export default async function run(): Promise<void> {
  console.log(`transports benchmark · ${await machineLine()}`);
  if (!(await postgresAvailable())) {
    console.log('PostgreSQL is not reachable (BENCH_DATABASE_URL): this bench runs on PostgreSQL only');
    return;
  }
  console.log('SEND_RATE_PER_SECOND=0; the SMTP sinks and scripted relays run in the bench process');
  const dns = await startDnsServer({});
  const splits: SplitFigures[] = [];
  let failover: FailoverFigures | null = null;
  try {
    for (let round = 0; PART !== 'failover' && round < SPLIT_ROUNDS; round++) {
      for (const layout of round % 2 === 0 ? (['one', 'split'] as const) : (['split', 'one'] as const)) {
        const figures = await runSplit(layout, dns);
        splits.push(figures);
        console.log(`\n${splitLines(figures).join('\n')}`);
      }
    }
    if (PART !== 'split') {
      failover = await runFailover(dns);
      console.log(`\n${failoverLines(failover).join('\n')}`);
    }
  } finally {
    await dns.close();
  }
  console.log('\ntransports side by side (PostgreSQL, one herald serve, its CPU on every thread):');
  if (splits.length > 0) console.log(splitTable(splits).join('\n'));
  if (failover) {
    console.log(`  failover, ${fmt(FAILOVER_RECIPIENTS)} recipients, A killed at a third`);
    for (const [name, value] of failoverRows(failover)) console.log(`  ${name.padEnd(30)} ${value}`);
  }
}
