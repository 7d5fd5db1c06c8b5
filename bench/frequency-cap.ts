/**
 * `npm run bench -- frequency-cap`: the campaign path with the project's frequency cap off and on, side by side in one
 * run, through a real `herald serve` process and the local SMTP sink.
 *
 * BENCH_RECIPIENTS (20,000) contacts are imported once; then campaigns to all of them are sent one after another with
 * the cap off, on, on, off (BENCH_ROUNDS of these four, 1), so that the emails each campaign leaves behind (which the
 * cap's count reads) weigh on both sides alike. The cap is `{max: 1000, per: "90d"}`: every check runs in full (the
 * batch's contacts locked, their recent marketing emails counted) and nobody is held back, so both sides deliver every
 * email. Prints, per side, emails/s (send request → last recipient at the sink), seconds to the campaign's SENT, and
 * CPU per email of the serve process and of every PostgreSQL process on the machine. BENCH_DB=postgres (default) or
 * pglite.
 */
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { until } from '../test/support/until.ts';
import {
  cpuSecondsOf,
  newsletter,
  postgresCpuSeconds,
  startHeraldProcess,
  type HeraldProcess,
} from './herald-process.ts';
import { fmt, machineLine, type DbKind } from './support.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const KIND = (process.env.BENCH_DB ?? 'postgres') as DbKind;
const CAP = { max: 1000, per: '90d' };
/** The slowdown the cap may cost at most. */
const TARGET_SLOWDOWN = 0.1;

interface Send {
  cap: boolean;
  seconds: number;
  sentAfter: number;
  heraldCpu: number;
  postgresCpu: number;
  delivered: number;
}

/** One campaign to every contact, timed from the send request to its last recipient and to SENT. */
async function sendOne(herald: HeraldProcess, sink: SmtpSink, cap: boolean, n: number): Promise<Send> {
  await herald.api('PATCH', '/settings', { frequencyCap: cap ? CAP : null });
  const campaign = await herald.api('POST', '/campaigns', {
    name: `bench ${n}`,
    audienceType: 'ALL',
    from: 'news@cap.bench.test',
    fromName: 'Bench',
    ...newsletter('cap.bench.test'),
  });
  sink.clear();
  const cpuBefore = cpuSecondsOf(herald.pid());
  const pgBefore = KIND === 'postgres' ? postgresCpuSeconds() : 0;
  const started = performance.now();
  await herald.api('POST', `/campaigns/${campaign.id}/send`);
  await until(() => sink.perRecipient.size >= RECIPIENTS, 'every recipient', 3_600_000, 20);
  const seconds = (performance.now() - started) / 1000;
  const heraldCpu = cpuSecondsOf(herald.pid()) - cpuBefore;
  const postgresCpu = KIND === 'postgres' ? postgresCpuSeconds() - pgBefore : 0;
  await until(
    async () => (await herald.api('GET', `/campaigns/${campaign.id}`)).status === 'SENT',
    'SENT',
    300_000,
    100,
  );
  const sentAfter = (performance.now() - started) / 1000;
  const stats = await herald.api('GET', `/campaigns/${campaign.id}/stats`);
  if (stats.suppressed !== 0) throw new Error(`campaign ${n} held back ${stats.suppressed} emails`);
  return { cap, seconds, sentAfter, heraldCpu, postgresCpu, delivered: sink.perRecipient.size };
}

/** The sums of one side's sends. */
function side(sends: Send[], cap: boolean) {
  const mine = sends.filter((s) => s.cap === cap);
  const sum = (pick: (s: Send) => number) => mine.reduce((total, s) => total + pick(s), 0);
  const delivered = sum((s) => s.delivered);
  return {
    rate: delivered / sum((s) => s.seconds),
    sentAfter: sum((s) => s.sentAfter) / mine.length,
    heraldMs: (sum((s) => s.heraldCpu) * 1000) / delivered,
    postgresMs: (sum((s) => s.postgresCpu) * 1000) / delivered,
    rates: mine.map((s) => s.delivered / s.seconds),
  };
}

export default async function run(): Promise<void> {
  console.log(`frequency-cap benchmark · ${await machineLine()}`);
  const dns = await startDnsServer({});
  const sink = await startSmtpSink({ keepRaw: false });
  const herald = await startHeraldProcess({
    kind: KIND,
    sink,
    dns,
    domain: 'cap.bench.test',
    contacts: RECIPIENTS,
  });
  const sends: Send[] = [];
  try {
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const cap of [false, true, true, false]) {
        const send = await sendOne(herald, sink, cap, ++n);
        sends.push(send);
        console.error(
          `[frequency-cap ${KIND}] campaign ${n} cap ${cap ? 'on ' : 'off'}: ${fmt(send.delivered)} in ` +
            `${fmt(send.seconds, 1)} s → ${fmt(send.delivered / send.seconds)} emails/s`,
        );
      }
    }
  } finally {
    await herald.close();
    await sink.close();
    await dns.close();
  }
  const off = side(sends, false);
  const on = side(sends, true);
  const line = (name: string, s: ReturnType<typeof side>) =>
    `  ${name.padEnd(8)} ${fmt(s.rate).padStart(6)} emails/s (runs: ${s.rates.map((r) => fmt(r)).join(', ')}); ` +
    `SENT after ${fmt(s.sentAfter, 1)} s; CPU per email: herald serve ${fmt(s.heraldMs, 3)} ms` +
    (KIND === 'postgres' ? `, PostgreSQL ${fmt(s.postgresMs, 3)} ms` : '');
  console.log(
    `\n${KIND}, ${fmt(RECIPIENTS)} recipients per campaign, ${fmt(sends.length)} campaigns (off, on, on, off ×` +
      ` ${ROUNDS}), cap ${CAP.max} per ${CAP.per} (checked in full, holding no one back):`,
  );
  console.log(line('cap off', off));
  console.log(line('cap on', on));
  const slowdown = 1 - on.rate / off.rate;
  console.log(
    `  slowdown ${fmt(slowdown * 100, 1)} % of emails/s (target ≤ ${fmt(TARGET_SLOWDOWN * 100)} %); ` +
      `CPU per email ${fmt(on.heraldMs + on.postgresMs - off.heraldMs - off.postgresMs, 3)} ms more`,
  );
}
