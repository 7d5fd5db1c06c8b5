/**
 * `npm run bench -- recovery`: what a killed sender costs, counted at the SMTP sink per recipient.
 *
 *   kill:    (PostgreSQL and PGlite) a campaign to BENCH_KILL_RECIPIENTS (5,000) contacts through one
 *            `herald serve`; once a third has arrived, kill -9, then start it again on the same database.
 *            Prints the time from the restart (the new process spawned) to its first message at the sink,
 *            and when every recipient had arrived: delivered unique, duplicates (at-least-once re-sends of
 *            what was in flight at the kill), missing, and the emails' statuses in the database at the kill.
 *   workers: (PostgreSQL) one `herald api` and three `herald worker` processes, a campaign to
 *            BENCH_WORKERS_RECIPIENTS (20,000); once half has arrived, one worker is stopped and not
 *            restarted: first with SIGTERM (it finishes and records what it holds), then, in a second run,
 *            with SIGKILL. Prints delivered unique, duplicates, missing and the duration, after the campaign
 *            is SENT (so late re-sends are counted too).
 *   scale:   (PostgreSQL) one `herald api` and 1, 2 and 3 `herald worker` processes in turn, each sending a campaign
 *            to BENCH_SCALE_RECIPIENTS (20,000): emails/s, and CPU per email of the workers and of PostgreSQL.
 * BENCH_PART=kill|workers|scale runs one part; BENCH_DB=postgres|pglite one database (kill part);
 * BENCH_RECOVERY_LIMIT_SECONDS (1,800) bounds each wait for delivery.
 */
import os from 'node:os';
import { startDnsServer, type TestDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import {
  contactAddress,
  cpuSecondsOf,
  postgresCpuSeconds,
  startHeraldProcess,
  type HeraldProcess,
} from './herald-process.ts';
import { until } from '../test/support/until.ts';
import { benchKinds, fmt, machineLine, tally, type DbKind } from './support.ts';

const KILL_RECIPIENTS = Number(process.env.BENCH_KILL_RECIPIENTS ?? 5000);
const WORKERS_RECIPIENTS = Number(process.env.BENCH_WORKERS_RECIPIENTS ?? 20_000);
const WORKERS = 3;
const SCALE_RECIPIENTS = Number(process.env.BENCH_SCALE_RECIPIENTS ?? 20_000);
const LIMIT_MS = Number(process.env.BENCH_RECOVERY_LIMIT_SECONDS ?? 1800) * 1000;
const PART = process.env.BENCH_PART;
/** Retries after a failed attempt come quickly, so a re-send after a kill is not hidden behind a long back-off. */
const ENV = { SEND_RETRY_DELAY_SECONDS: '1', SEND_RETRY_DELAY_MAX_SECONDS: '5' };

const seconds = (fromMs: number, toMs: number) => `${fmt((toMs - fromMs) / 1000, 1)} s`;

/** A campaign to every contact, sent; its id. */
async function sendCampaign(herald: HeraldProcess): Promise<string> {
  const campaign = await herald.api('POST', '/campaigns', {
    name: 'recovery',
    audienceType: 'ALL',
    from: 'news@recovery.bench.test',
    subject: 'News for {{ firstName }}',
    body:
      '<p>Hello {{ firstName }}, <a href="https://recovery.bench.test/a">read</a>. <a ' +
      'href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
  });
  await herald.api('POST', `/campaigns/${campaign.id}/send`);
  return campaign.id as string;
}

/**
 * Waits for every recipient at the sink and the campaign's SENT, then a quiet second for stragglers; when each
 * happened.
 */
async function settle(
  herald: HeraldProcess,
  sink: SmtpSink,
  id: string,
  recipients: number,
): Promise<{ allAt: number; sentAt: number }> {
  await until(() => sink.perRecipient.size >= recipients, 'every recipient at the sink', LIMIT_MS, 20);
  const allAt = performance.now();
  await until(
    async () => (await herald.api('GET', `/campaigns/${id}`)).status === 'SENT',
    'the campaign SENT',
    LIMIT_MS,
    250,
  );
  const sentAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { allAt, sentAt };
}

/** `status count, …` of the campaign's emails, read directly. */
async function statuses(herald: HeraldProcess): Promise<string> {
  const rows = await herald.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM emails GROUP BY status ORDER BY status',
  );
  return rows.map((r) => `${r.status} ${fmt(r.n)}`).join(', ') || 'no emails';
}

/**
 * Sends the campaign and, once `fraction` of the recipients arrived, runs `kill`; returns the kill's report line too.
 */
async function sendAndKill(
  herald: HeraldProcess,
  sink: SmtpSink,
  recipients: number,
  fraction: number,
  kill: () => Promise<void>,
) {
  sink.clear();
  const started = performance.now();
  const id = await sendCampaign(herald);
  await until(() => sink.perRecipient.size >= recipients * fraction, `${fraction} of the recipients`, LIMIT_MS, 5);
  const killedAt = performance.now();
  await kill();
  const line =
    `  killed after ${seconds(started, killedAt)} with ${fmt(sink.perRecipient.size)} ` +
    `recipients at the sink; emails in the database then: ${await statuses(herald)}`;
  return { id, started, killedAt, line };
}

const counted = (sink: SmtpSink, recipients: number) =>
  tally(
    sink.perRecipient,
    Array.from({ length: recipients }, (_, i) => contactAddress(i)),
  );

async function killAndRestart(kind: DbKind, dns: TestDnsServer): Promise<string[]> {
  const sink = await startSmtpSink({ keepRaw: false });
  const herald = await startHeraldProcess({
    kind,
    sink,
    dns,
    domain: 'recovery.bench.test',
    contacts: KILL_RECIPIENTS,
    env: ENV,
  });
  try {
    const { id, killedAt, line } = await sendAndKill(herald, sink, KILL_RECIPIENTS, 1 / 3, () =>
      herald.kill('SIGKILL'),
    );
    const arrivedBefore = sink.messages.length;
    const restartedAt = performance.now();
    await herald.start();
    const readyAt = performance.now();
    await until(() => sink.messages.length > arrivedBefore, 'the first message after the restart', LIMIT_MS, 5);
    const first = sink.messages[arrivedBefore]!.arrivedAt;
    const { allAt, sentAt } = await settle(herald, sink, id, KILL_RECIPIENTS);
    const c = counted(sink, KILL_RECIPIENTS);
    return [
      `${kind}, kill -9 of the one herald serve process, ${fmt(KILL_RECIPIENTS)} recipients:`,
      line,
      `  restart → first message at the sink  ${seconds(restartedAt, first)} ` +
        `(process ready after ${seconds(restartedAt, readyAt)}; kill → ` +
        `first message ${seconds(killedAt, first)}; target ≤ 10 s)`,
      `  every recipient at the sink          ${seconds(restartedAt, allAt)} ` +
        `after the restart; campaign SENT after ${seconds(restartedAt, sentAt)}`,
      `  delivered unique ${fmt(c.unique)}, duplicates ${fmt(c.duplicates)}, ` +
        `missing ${fmt(c.missing)} (${fmt(sink.messages.length)} messages ` +
        `at the sink)`,
    ];
  } finally {
    await herald.close();
    await sink.close();
  }
}

/** A sink, and one `herald api` with `workers` worker processes on PostgreSQL and `contacts` contacts. */
async function startWorkers(
  dns: TestDnsServer,
  contacts: number,
  workers: number,
): Promise<{ sink: SmtpSink; herald: HeraldProcess }> {
  const sink = await startSmtpSink({ keepRaw: false });
  const herald = await startHeraldProcess({
    kind: 'postgres',
    sink,
    dns,
    domain: 'recovery.bench.test',
    contacts,
    workers,
    env: ENV,
  });
  return { sink, herald };
}

async function stopOneOfThree(dns: TestDnsServer, signal: 'SIGTERM' | 'SIGKILL'): Promise<string[]> {
  const { sink, herald } = await startWorkers(dns, WORKERS_RECIPIENTS, WORKERS);
  try {
    const victim = herald.workerPids()[0];
    const { id, started, killedAt, line } = await sendAndKill(herald, sink, WORKERS_RECIPIENTS, 1 / 2, () =>
      herald.killWorker(0, signal),
    );
    const { allAt, sentAt } = await settle(herald, sink, id, WORKERS_RECIPIENTS);
    const c = counted(sink, WORKERS_RECIPIENTS);
    return [
      `postgres, one herald api and ${WORKERS} herald worker processes, ` +
        `${fmt(WORKERS_RECIPIENTS)} recipients, one worker (pid ${victim}) ` +
        `sent ${signal} halfway and not restarted:`,
      line,
      `  delivered unique ${fmt(c.unique)}, duplicates ${fmt(c.duplicates)}, ` +
        `missing ${fmt(c.missing)} → ${c.missing === 0 && c.duplicates === 0 ? 'exactly once' : 'NOT exactly once'}`,
      `  duration: send → every recipient ${seconds(started, allAt)} ` +
        `(${fmt(WORKERS_RECIPIENTS / ((allAt - started) / 1000))} emails/s); ` +
        `kill → every recipient ${seconds(killedAt, allAt)}; campaign SENT ` +
        `after ${seconds(started, sentAt)}`,
      `  emails in the database at the end: ${await statuses(herald)}`,
    ];
  } finally {
    await herald.close();
    await sink.close();
  }
}

/**
 * One `herald api` and `workers` worker processes send a campaign to SCALE_RECIPIENTS: emails/s from the send request
 * to the last recipient, and the CPU per email of the workers together and of PostgreSQL's processes.
 */
async function scaleOut(dns: TestDnsServer, workers: number): Promise<string> {
  const { sink, herald } = await startWorkers(dns, SCALE_RECIPIENTS, workers);
  try {
    const pids = herald.workerPids();
    const workersCpu = () => pids.reduce((n, pid) => n + cpuSecondsOf(pid), 0);
    const [herald0, postgres0] = [workersCpu(), postgresCpuSeconds()];
    const started = performance.now();
    const id = await sendCampaign(herald);
    const { allAt } = await settle(herald, sink, id, SCALE_RECIPIENTS);
    const [heraldCpu, postgresCpu] = [workersCpu() - herald0, postgresCpuSeconds() - postgres0];
    const c = counted(sink, SCALE_RECIPIENTS);
    const perEmail = (cpu: number) => `${fmt((cpu * 1000) / SCALE_RECIPIENTS, 2)} ms`;
    const rate = fmt(SCALE_RECIPIENTS / ((allAt - started) / 1000));
    return (
      `  ${workers} worker${workers > 1 ? 's' : ' '}   ${rate.padStart(6)} ` +
      `emails/s   CPU per email: workers ${perEmail(heraldCpu)}, PostgreSQL ${perEmail(postgresCpu)} ` +
      `(${fmt((100 * postgresCpu) / (heraldCpu + postgresCpu))} % of the two)   unique ${fmt(c.unique)}, ` +
      `duplicates ${fmt(c.duplicates)}, missing ${fmt(c.missing)}`
    );
  } finally {
    await herald.close();
    await sink.close();
  }
}

export default async function run(): Promise<void> {
  console.log(`recovery benchmark · ${await machineLine()}`);
  console.log(`SEND_RATE_PER_SECOND=0, local SMTP sink, SEND_RETRY_DELAY_SECONDS=1 (max 5)`);
  const kinds = await benchKinds();
  const dns = await startDnsServer({});
  try {
    if (PART === undefined || PART === 'kill')
      for (const kind of kinds) console.log(`\n${(await killAndRestart(kind, dns)).join('\n')}`);
    if (PART === undefined || PART === 'scale') {
      if (kinds.includes('postgres')) {
        console.log(
          `\nscale-out: postgres, one herald api and 1, 2, 3 herald worker processes, ${fmt(SCALE_RECIPIENTS)} ` +
            `recipients each (${os.availableParallelism()} cores for all of them, PostgreSQL and the sink):`,
        );
        for (const workers of [1, 2, 3]) console.log(await scaleOut(dns, workers));
      } else console.log('\nscale-out: skipped, separate worker processes need PostgreSQL');
    }
    if (PART === undefined || PART === 'workers') {
      if (kinds.includes('postgres')) {
        for (const signal of ['SIGTERM', 'SIGKILL'] as const)
          console.log(`\n${(await stopOneOfThree(dns, signal)).join('\n')}`);
      } else console.log('\nthree workers: skipped, separate worker processes need PostgreSQL');
    }
  } finally {
    await dns.close();
  }
}
