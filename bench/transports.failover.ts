/**
 * Part of the transports benchmark: a campaign routed to relay A with relay B as its fallback; once a third of the
 * messages reached A, A refuses connections (its open ones cut) for the rest of the run. Counted per recipient
 * across A, B and the instance's own transport (which must get nothing); B's arrivals sampled every 10 ms.
 */
import type { TestDnsServer } from '../test/support/dns-server.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../test/support/scripted-smtp.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import { until } from '../test/support/until.ts';
import { contactAddress, startHeraldProcess } from './herald-process.ts';
import { fmt } from './support.ts';
import {
  addTransports,
  countAt,
  createCampaign,
  DOMAIN,
  LIMIT_MS,
  notSent,
  recordedTransports,
  secondsBetween,
  sendAndSettle,
} from './transports.campaign.ts';

export const FAILOVER_RECIPIENTS = Number(process.env.BENCH_FAILOVER_RECIPIENTS ?? 6000);
/** B carries the mail at its steady rate once a second of it brings this share of its mid-run rate. */
const STEADY_SHARE = 0.9;

/** Messages stored at A and B at one moment. */
interface Sample {
  at: number;
  a: number;
  b: number;
}

function sampleEvery10ms(a: ScriptedSmtp, b: ScriptedSmtp): { samples: Sample[]; stop(): void } {
  const samples: Sample[] = [];
  const timer = setInterval(
    () => samples.push({ at: performance.now(), a: a.messages.length, b: b.messages.length }),
    10,
  );
  return { samples, stop: () => clearInterval(timer) };
}

/** B's rate (messages/s) between a quarter and three quarters of its messages: the pace it settled at. */
function midRate(samples: Sample[]): number {
  const total = samples.at(-1)?.b ?? 0;
  const q1 = samples.find((s) => s.b >= total / 4);
  const q3 = samples.find((s) => s.b >= (total * 3) / 4);
  if (!q1 || !q3 || q3.at <= q1.at) return NaN;
  return (q3.b - q1.b) / secondsBetween(q1.at, q3.at);
}

/** The first moment from `from` on that starts a second in which B received STEADY_SHARE of `rate`; null if none. */
function steadyFrom(samples: Sample[], from: number, rate: number): number | null {
  let j = 0;
  for (const s of samples) {
    if (s.at < from) continue;
    while (j < samples.length && samples[j]!.at < s.at + 1000) j++;
    const end = samples[j];
    if (!end) return null;
    if (end.b - s.b >= STEADY_SHARE * rate * secondsBetween(s.at, end.at)) return s.at;
  }
  return null;
}

export interface FailoverFigures {
  /** Recipients with no message anywhere. */
  lost: number;
  /** Recipients with more than one message across A, B and the instance's transport. */
  duplicated: number;
  atKill: { a: number; b: number };
  final: { a: number; b: number; instance: number };
  /** A's rate from its first message to the kill, and B's mid-run rate (messages/s). */
  aRate: number;
  bRate: number;
  sendToKill: number;
  killToFirstB: number;
  killToSteady: number | null;
  total: number;
  sentAfter: number;
  /** What GET /transports/{A} says at the end; `downAfter`: seconds from the kill to its `since` while DOWN. */
  a: { state: string; failovers: number; lastError: string | null; downAfter: number | null };
  /** Connections to A that failed (the breaker's count, read directly). */
  aFailures: number;
  recorded: string;
  notSent: string;
}

/** Kills A (refused, open connections cut) once a third of the messages reached it; the moment and the counts then. */
function killAtAThird(a: ScriptedSmtp, b: ScriptedSmtp) {
  // Polled, so the kill falls at any moment of a message's exchange, not right after one was stored.
  return until(() => a.messages.length >= FAILOVER_RECIPIENTS / 3, 'a third at A', LIMIT_MS, 2).then(async () => {
    const at = performance.now();
    const wall = Date.now();
    const counts = { a: a.messages.length, b: b.messages.length };
    await a.set('refuse');
    return { at, wall, counts };
  });
}

/** A campaign routed to A (fallback B); A refuses connections from a third of the way on. */
export async function runFailover(dns: TestDnsServer): Promise<FailoverFigures> {
  const instanceSink = await startSmtpSink({ keepRaw: false });
  const [a, b] = [await startScriptedSmtp(), await startScriptedSmtp()];
  const herald = await startHeraldProcess({
    kind: 'postgres',
    sink: instanceSink,
    dns,
    domain: DOMAIN,
    contacts: FAILOVER_RECIPIENTS,
  });
  const sampler = sampleEvery10ms(a, b);
  try {
    const [aId, bId] = (await addTransports(herald, [a, b])) as [string, string];
    await herald.api('PUT', '/routing', {
      rules: [{ match: { recipientDomain: 'dest.test' }, transportId: aId, fallbackIds: [bId] }],
      defaultTransportId: 'default',
    });
    const campaignId = await createCampaign(herald);
    const firstAtA = a.waitForMessages(1, LIMIT_MS).then(() => performance.now());
    const firstAtB = b.waitForMessages(1, LIMIT_MS).then(() => performance.now());
    const killed = killAtAThird(a, b);
    // Awaited after the send; a failure of the send is the one to report.
    for (const pending of [firstAtA, firstAtB, killed]) pending.catch(() => undefined);
    const receivers = [instanceSink, a, b];
    const { started, allAt, sentAt } = await sendAndSettle(herald, campaignId, receivers, FAILOVER_RECIPIENTS);
    sampler.stop();
    const [kill, firstA, firstB] = await Promise.all([killed, firstAtA, firstAtB]);
    const view = await herald.api('GET', `/transports/${aId}`);
    const [health] = await herald.query<{ failures: number }>('SELECT failures FROM transport_health WHERE key = $1', [
      aId,
    ]);
    let lost = 0;
    let duplicated = 0;
    for (let i = 0; i < FAILOVER_RECIPIENTS; i++) {
      const count = countAt(receivers, contactAddress(i));
      if (count === 0) lost++;
      if (count > 1) duplicated++;
    }
    const names = new Map([
      [aId, 'A'],
      [bId, 'B'],
    ]);
    const recorded = await recordedTransports(herald, "'all'");
    const bRate = midRate(sampler.samples);
    const steadyAt = steadyFrom(sampler.samples, firstB, bRate);
    return {
      lost,
      duplicated,
      atKill: kill.counts,
      final: { a: a.messages.length, b: b.messages.length, instance: instanceSink.messages.length },
      aRate: (kill.counts.a - 1) / secondsBetween(firstA, kill.at),
      bRate,
      sendToKill: secondsBetween(started, kill.at),
      killToFirstB: secondsBetween(kill.at, firstB),
      killToSteady: steadyAt === null ? null : secondsBetween(kill.at, steadyAt),
      total: secondsBetween(started, allAt),
      sentAfter: secondsBetween(started, sentAt),
      a: {
        state: view.state as string,
        failovers: Number(view.failovers),
        lastError: view.lastError as string | null,
        downAfter: view.state === 'DOWN' && view.since ? (Date.parse(view.since as string) - kill.wall) / 1000 : null,
      },
      aFailures: Number(health?.failures ?? 0),
      recorded: recorded.map((r) => `${names.get(r.transport ?? '') ?? r.transport} ${fmt(r.n)}`).join(', '),
      notSent: await notSent(herald),
    };
  } finally {
    sampler.stop();
    await herald.close();
    await Promise.all([instanceSink.close(), a.close(), b.close()]);
  }
}

const seconds = (value: number | null, digits = 2) => (value === null ? 'not reached' : `${fmt(value, digits)} s`);

/** The run's report. */
export function failoverLines(f: FailoverFigures): string[] {
  const down = f.a.downAfter === null ? '' : ` since ${seconds(f.a.downAfter)} after the kill`;
  return [
    `postgres, ${fmt(FAILOVER_RECIPIENTS)} recipients routed to relay A (fallback relay B); A refuses connections ` +
      `from a third on (open ones cut), TRANSPORT_BACKOFF_SECONDS 30:`,
    `  killed after ${fmt(f.sendToKill, 1)} s with ${fmt(f.atKill.a)} messages at A (${fmt(f.aRate)}/s until ` +
      `then), ${fmt(f.atKill.b)} at B`,
    `  lost ${fmt(f.lost)}; recipients with more than one message ${fmt(f.duplicated)}; at the end A ` +
      `${fmt(f.final.a)}, B ${fmt(f.final.b)}, the instance's transport ${fmt(f.final.instance)} messages`,
    `  kill → B's first message ${seconds(f.killToFirstB, 3)}; → B at its steady rate (${fmt(f.bRate)}/s, a ` +
      `second at ≥ ${fmt(STEADY_SHARE * 100)} % of it) ${seconds(f.killToSteady)}`,
    `  total: send → every recipient ${seconds(f.total, 1)}; campaign SENT after ${seconds(f.sentAfter, 1)}`,
    `  GET /transports/{A}: ${f.a.state}${down}, failovers ${fmt(f.a.failovers)}, lastError ` +
      `${JSON.stringify(f.a.lastError)}; ${fmt(f.aFailures)} failed connections to A counted`,
    `  SENT emails by recorded transport: ${f.recorded}; not SENT: ${f.notSent}`,
  ];
}

/** The rows of the side-by-side table. */
export function failoverRows(f: FailoverFigures): [string, string][] {
  return [
    ['lost (must be 0)', fmt(f.lost)],
    ['recipients with two messages', fmt(f.duplicated)],
    ["kill → B's first message", seconds(f.killToFirstB, 3)],
    ['kill → B at its steady rate', `${seconds(f.killToSteady)} (${fmt(f.bRate)}/s; A ran at ${fmt(f.aRate)}/s)`],
    ['send → every recipient', seconds(f.total, 1)],
    ['A: state, failovers', `${f.a.state}, ${fmt(f.a.failovers)} (B received ${fmt(f.final.b)})`],
  ];
}
