/**
 * `npm run bench -- timeline`: what writing every email's timeline costs a campaign. Two kinds of `herald serve`
 * process on the same database kind and the same SMTP sink: one writing timelines (the default) and one with
 * EMAIL_TIMELINE=false, take turns sending a campaign of BENCH_TIMELINE_RECIPIENTS (10,000) contacts, BENCH_ROUNDS (3)
 * rounds each in one run. Prints emails/s and the process's CPU per email of each, and how many timeline rows the
 * recording process wrote per email. BENCH_DB=postgres|pglite (default postgres).
 */
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import { until } from '../test/support/until.ts';
import { cpuSecondsOf, newsletter, startHeraldProcess } from './herald-process.ts';
import { fmt, machineLine, type DbKind } from './support.ts';

const RECIPIENTS = Number(process.env.BENCH_TIMELINE_RECIPIENTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KIND = (process.env.BENCH_DB ?? 'postgres') as DbKind;
const DOMAIN = 'timeline.bench.test';

interface Figures {
  rate: number;
  cpuMsPerEmail: number;
  rowsPerEmail: number;
}

async function sendOnce(dns: Awaited<ReturnType<typeof startDnsServer>>, timeline: boolean): Promise<Figures> {
  const sink = await startSmtpSink();
  const herald = await startHeraldProcess({
    kind: KIND,
    sink,
    dns,
    domain: DOMAIN,
    contacts: RECIPIENTS,
    env: { EMAIL_TIMELINE: String(timeline) },
  });
  try {
    const campaign = await herald.api('POST', '/campaigns', {
      name: 'timeline',
      audienceType: 'ALL',
      from: `news@${DOMAIN}`,
      fromName: 'Bench',
      ...newsletter(DOMAIN),
    });
    sink.clear();
    const cpuBefore = cpuSecondsOf(herald.pid());
    const started = performance.now();
    await herald.api('POST', `/campaigns/${campaign.id}/send`);
    await until(() => sink.perRecipient.size >= RECIPIENTS, 'every recipient', 600_000, 20);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSecondsOf(herald.pid()) - cpuBefore;
    // The last batch's rows are written just after its messages are accepted.
    await until(
      async () => (await herald.api('GET', `/campaigns/${campaign.id}`)).status === 'SENT',
      'SENT',
      120_000,
      100,
    );
    const [row] = await herald.query<{ n: number }>('SELECT count(*)::int AS n FROM email_timeline');
    return { rate: RECIPIENTS / seconds, cpuMsPerEmail: (cpu * 1000) / RECIPIENTS, rowsPerEmail: row!.n / RECIPIENTS };
  } finally {
    await herald.close();
    await sink.close();
  }
}

const range = (values: number[], digits = 0) =>
  `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;

export default async function main(): Promise<void> {
  const dns = await startDnsServer({});
  const on: Figures[] = [];
  const off: Figures[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      on.push(await sendOnce(dns, true));
      off.push(await sendOnce(dns, false));
      console.error(
        `[timeline ${KIND}] round ${round}: with ${fmt(on.at(-1)!.rate)} e/s, without ${fmt(off.at(-1)!.rate)} e/s`,
      );
    }
  } finally {
    await dns.close();
  }
  const ratios = on.map((f, i) => f.rate / off[i]!.rate);
  console.log(`timeline benchmark · ${await machineLine()}`);
  console.log(`Campaign of ${fmt(RECIPIENTS)} on ${KIND}, ${ROUNDS} rounds, each process sending in turn:`);
  console.log('| | emails/s | CPU per email | timeline rows per email |');
  console.log('|---|---|---|---|');
  console.log(
    `| timelines written (default) | ${range(on.map((f) => f.rate))} | ` +
      `${range(
        on.map((f) => f.cpuMsPerEmail),
        2,
      )} ms | ${range(
        on.map((f) => f.rowsPerEmail),
        1,
      )} |`,
  );
  console.log(
    `| EMAIL_TIMELINE=false | ${range(off.map((f) => f.rate))} | ${range(
      off.map((f) => f.cpuMsPerEmail),
      2,
    )} ms | ${range(
      off.map((f) => f.rowsPerEmail),
      1,
    )} |`,
  );
  console.log(`with / without, per round: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
}
