/**
 * `npm run bench -- campaign`: a campaign's speed, memory and row size, through real processes only.
 *
 * For PostgreSQL and PGlite: BENCH_RECIPIENTS (20,000) contacts (CSV import), one campaign sent by one fresh
 * `herald serve` process at SEND_RATE_PER_SECOND=0 to the local SMTP sink; then, in the same run,
 * nodemailer's pooled transport (its own process, the domain's own DKIM key) sends the same messages to the
 * same sink. Prints emails/s of both and their ratio, the serve process's peak RSS (/proc VmHWM, the
 * process restarted after the import so only the send counts), and the emails table's size (heap + indexes
 * + TOAST) per row. Then one more size run on PostgreSQL, BENCH_LARGE (100,000; 0 skips) recipients, for
 * peak RSS and bytes per row at scale, without a baseline; it stops after BENCH_LARGE_LIMIT_SECONDS (600) of
 * sending and says how far it got. Each database also runs a campaign from a block template (BENCH_BLOCKS=0 skips it)
 * and an A/B test campaign of the same size (BENCH_AB=0 skips it):
 * 20 % in two variants, the winner picked after a 1 s wait, the rest with it, the wait counted in its time.
 * Each database also sends BENCH_BIG (10,000; 0 skips) recipients a BENCH_BIG_KB (100) KB newsletter beside nodemailer:
 * emails/s and MB/s on the wire.
 * BENCH_DB=postgres|pglite runs one database only (the size run needs PostgreSQL). Progress goes to stderr every 30 s.
 */
import { startDnsServer, type TestDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import {
  contactAddress,
  cpuSecondsOf,
  memoryOf,
  bigNewsletter,
  newsletter,
  startHeraldProcess,
  type HeraldProcess,
} from './herald-process.ts';
import { until } from '../test/support/until.ts';
import { assertSignedOnceBy, BASELINE_SHAPE, baselineMessages, baselineThroughput } from './nodemailer-baseline.ts';
import { benchKinds, fmt, machineLine, tally, type DbKind } from './support.ts';

const AB_DESCRIPTION = 'an A/B test (20 % in 2 variants, the winner after a 1 s wait, counted in the time)';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 100_000);
/** The big-message run: this many recipients of a BENCH_BIG_KB (100) KB newsletter, beside nodemailer (0 skips). */
const BIG = Number(process.env.BENCH_BIG ?? 10_000);
const BIG_KB = Number(process.env.BENCH_BIG_KB ?? 100);
const LARGE_LIMIT_SECONDS = Number(process.env.BENCH_LARGE_LIMIT_SECONDS ?? 600);
const TARGET_RATIO: Record<DbKind, number> = { postgres: 1.5, pglite: 0.5 };
/** Herald's CPU per email (every thread of its process) the engine aims at. */
const TARGET_CPU_MS = 1.0;
const MB = 1024 * 1024;

interface Sizes {
  rows: number;
  /** Each index of the emails table, in bytes. */
  byIndex: Record<string, number>;
  total: number;
  heap: number;
  indexes: number;
  database: number;
}

interface RunFigures {
  kind: DbKind;
  /** An A/B test: 20 % in two variants, the winner after a 1 s wait, the rest with it. */
  ab: boolean;
  /** The campaign's format: html as written, or a block document compiled once with MJML when the send starts. */
  format: 'html' | 'blocks';
  /** The body's size when it was the big newsletter (KB), else 0. */
  bodyKb: number;
  /** Bytes of every message the sink received from Herald (signed, as on the wire). */
  bytes: number;
  recipients: number;
  delivered: number;
  duplicates: number;
  seconds: number;
  /** Seconds from the send request to the campaign's SENT status; null when it was not reached. */
  sentAfter: number | null;
  idleRss: number;
  peakRss: number;
  /** CPU seconds the serve process used (every thread) from the send request to the last recipient. */
  cpuSeconds: number;
  before: Sizes;
  after: Sizes;
  baseline: { rate: number; seconds: number; delivered: number; cpuSeconds: number } | null;
}

/** The emails table (heap, indexes, TOAST) and the whole database, read directly. */
async function sizesOf(herald: HeraldProcess): Promise<Sizes> {
  const [row] = await herald.query<{ rows: number; total: string; heap: string; indexes: string; database: string }>(
    `SELECT (SELECT count(*)::int FROM emails) AS rows, pg_total_relation_size('emails') AS total,
            pg_relation_size('emails') AS heap,
            pg_indexes_size('emails') AS indexes, pg_database_size(current_database()) AS database`,
  );
  const indexes = await herald.query<{ name: string; size: string }>(
    `SELECT indexrelname AS name, pg_relation_size(indexrelid) AS size ` +
      `FROM pg_stat_user_indexes WHERE relname = 'emails' ORDER BY 2 ` +
      `DESC`,
  );
  const byIndex = Object.fromEntries(indexes.map((i) => [i.name, Number(i.size)]));
  return {
    rows: row!.rows,
    byIndex,
    total: Number(row!.total),
    heap: Number(row!.heap),
    indexes: Number(row!.indexes),
    database: Number(row!.database),
  };
}

/** The same message as the html run's, as a block template (heading, text with two links, a footer). */
const BLOCKS_TEMPLATE = {
  name: 'bench blocks',
  type: 'MARKETING',
  subject: 'News for {{ firstName }}',
  format: 'blocks',
  content: {
    version: 1,
    blocks: [
      { type: 'heading', text: 'Hello {{ firstName }}', level: 1 },
      {
        type: 'text',
        html:
          '<p>This month: <a href="https://campaign.bench.test/a">an article</a> and ' +
          '<a href="https://campaign.bench.test/b">another one</a>.</p>',
      },
      { type: 'footer', address: '1 Bench Street' },
    ],
  },
};

/** One campaign to `recipients` contacts on `kind`; with the nodemailer baseline when `withBaseline`. */
async function runCampaign(
  kind: DbKind,
  recipients: number,
  dns: TestDnsServer,
  withBaseline: boolean,
  limitSeconds: number,
  ab = false,
  format: 'html' | 'blocks' = 'html',
  bodyKb = 0,
): Promise<RunFigures> {
  const label =
    `[campaign${ab ? ' A/B' : ''}${format === 'blocks' ? ' blocks' : ''}${bodyKb ? ` ${bodyKb} KB` : ''} ` +
    `${kind} ${fmt(recipients)}]`;
  const sink = await startSmtpSink({ keepRaw: withBaseline });
  const importStarted = performance.now();
  const herald = await startHeraldProcess({ kind, sink, dns, domain: 'campaign.bench.test', contacts: recipients });
  try {
    console.error(
      `${label} ${fmt(recipients)} contacts imported in ${fmt((performance.now() - importStarted) / 1000, 1)} s`,
    );
    const content =
      format === 'blocks'
        ? { templateId: (await herald.api('POST', '/templates', BLOCKS_TEMPLATE)).id }
        : bodyKb > 0
          ? bigNewsletter('campaign.bench.test', bodyKb)
          : newsletter('campaign.bench.test');
    const campaign = await herald.api('POST', '/campaigns', {
      name: 'bench',
      audienceType: 'ALL',
      from: 'news@campaign.bench.test',
      fromName: 'Bench',
      ...content,
      ...(ab
        ? {
            variants: [{ subject: 'News for {{ firstName }}' }, { subject: 'This month, {{ firstName }}' }],
            abTest: { testPercent: 20, metric: 'opens', waitFor: '1s' },
          }
        : {}),
    });
    // Stopped between the import and the send: the embedded database can be read, and the fresh process's peak RSS is
    // the send's alone.
    await herald.stop();
    const dkim = withBaseline ? await herald.dkimKey() : null;
    const before = await sizesOf(herald);
    await herald.start();
    const idleRss = memoryOf(herald.pid()).rss;
    sink.clear();
    const cpuBefore = cpuSecondsOf(herald.pid());
    const started = performance.now();
    await herald.api('POST', `/campaigns/${campaign.id}/send`);
    const deadline = started + limitSeconds * 1000;
    let nextReport = started + 30_000;
    await until(
      () => {
        const now = performance.now();
        if (now >= nextReport) {
          nextReport += 30_000;
          console.error(
            `${label} ${fmt(sink.perRecipient.size)} delivered after ${fmt((now - started) / 1000)} ` +
              `s, RSS ${fmt(memoryOf(herald.pid()).rss)} MB`,
          );
        }
        return sink.perRecipient.size >= recipients || now >= deadline;
      },
      'every recipient',
      limitSeconds * 1000 + 60_000,
      20,
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSecondsOf(herald.pid()) - cpuBefore;
    let sentAfter: number | null = null;
    if (sink.perRecipient.size >= recipients) {
      await until(
        async () => (await herald.api('GET', `/campaigns/${campaign.id}`)).status === 'SENT',
        'SENT',
        300_000,
        200,
      );
      sentAfter = (performance.now() - started) / 1000;
    }
    const peakRss = memoryOf(herald.pid()).peak;
    await herald.stop();
    const after = await sizesOf(herald);
    const counted = tally(
      sink.perRecipient,
      Array.from({ length: recipients }, (_, i) => contactAddress(i)),
    );
    const bytes = sink.messages.reduce((n, m) => n + m.raw.length, 0);
    let baseline: RunFigures['baseline'] = null;
    if (dkim) {
      const messages = baselineMessages(sink.messages);
      sink.clear();
      const result = await baselineThroughput(sink.port, dkim, messages);
      assertSignedOnceBy(sink.messages[0]!.raw, dkim.domainName);
      baseline = { ...result, delivered: sink.perRecipient.size };
    }
    return {
      kind,
      ab,
      format,
      bodyKb,
      bytes,
      recipients,
      delivered: counted.unique,
      duplicates: counted.duplicates,
      seconds,
      sentAfter,
      idleRss,
      peakRss,
      cpuSeconds,
      before,
      after,
      baseline,
    };
  } finally {
    await herald.close();
    await sink.close();
  }
}

/** The lines of one run. */
function report(f: RunFigures, limitSeconds: number): string[] {
  const rate = f.delivered / f.seconds;
  const partial =
    f.delivered < f.recipients
      ? ` — stopped at the ${fmt(limitSeconds)} s limit, ${fmt(f.delivered)} of ${fmt(f.recipients)} delivered`
      : '';
  const grown = f.after.database - f.before.database;
  const lines = [
    `${f.kind}, ${fmt(f.recipients)} recipients${f.ab ? `, ${AB_DESCRIPTION}` : ''}` +
      `${f.bodyKb ? `, a ${fmt(f.bodyKb)} KB HTML body` : ''}` +
      `${f.format === 'blocks' ? ', from a block template (compiled once)' : ''}, one herald serve process:`,
    `  herald serve          ${fmt(f.delivered)} delivered in ${fmt(f.seconds, 1)} ` +
      `s → ${fmt(rate)} emails/s${partial}` +
      `${f.sentAfter === null ? '' : `; campaign SENT after ${fmt(f.sentAfter, 1)} s`}; ` +
      `${fmt(f.duplicates)} duplicates`,
  ];
  if (f.baseline) {
    lines.push(
      `  nodemailer baseline   ${fmt(f.baseline.delivered)} delivered ` +
        `in ${fmt(f.baseline.seconds, 1)} s → ${fmt(f.baseline.rate)} emails/s ` +
        `(${BASELINE_SHAPE})`,
      `  ratio                 ${fmt(rate / f.baseline.rate, 2)}× (target ≥ ${fmt(TARGET_RATIO[f.kind], 1)}×)`,
    );
  }
  if (f.bytes > 0) {
    const perMessage = f.bytes / Math.max(1, f.delivered);
    lines.push(
      `  on the wire           ${fmt(perMessage / 1024, 1)} KB per message → ` +
        `herald ${fmt(f.bytes / MB / f.seconds, 1)} MB/s` +
        (f.baseline ? `, nodemailer ${fmt((perMessage * f.baseline.rate) / MB, 1)} MB/s (the same messages)` : ''),
    );
  }
  // CPU per email: on a machine with few cores, what decides the ratio (the database's own CPU is not counted).
  lines.push(
    `  CPU per email         herald serve ${fmt((f.cpuSeconds * 1000) / Math.max(1, f.delivered), 2)} ` +
      `ms (every thread)` +
      (f.baseline
        ? `, nodemailer baseline ${fmt((f.baseline.cpuSeconds * 1000) / Math.max(1, f.baseline.delivered), 2)} ms`
        : ''),
  );
  lines.push(
    `  peak RSS of serve     ${fmt(f.peakRss)} MB (idle before the send ${fmt(f.idleRss)} MB; target ≤ 200 MB)`,
    `  emails table          ${fmt(f.after.total / MB, 1)} MB for ${fmt(f.after.rows)} ` +
      `rows → ${fmt(f.after.rows ? f.after.total / f.after.rows : NaN)} ` +
      `bytes/row` +
      ` (heap ${fmt(f.after.heap / MB, 1)} MB, indexes ${fmt(f.after.indexes / MB, 1)} ` +
      `MB, TOAST ${fmt((f.after.total - f.after.heap - f.after.indexes) / MB, 1)} ` +
      `MB; target ≤ 1,024)`,
    `  its indexes, bytes/row ${Object.entries(f.after.byIndex)
      .map(([name, size]) => `${name} ${fmt(f.after.rows ? size / f.after.rows : NaN)}`)
      .join(', ')}`,
    `  database growth       ${fmt(grown / MB, 1)} MB from before the ` +
      `send to after it → ${fmt(grown / Math.max(1, f.after.rows))} bytes ` +
      `per email row (every table: emails, events, jobs)`,
  );
  return lines;
}

export default async function run(): Promise<void> {
  console.log(`campaign benchmark · ${await machineLine()}`);
  const kinds = await benchKinds();
  const dns = await startDnsServer({});
  const runs: RunFigures[] = [];
  try {
    for (const kind of kinds) {
      const figures = await runCampaign(kind, RECIPIENTS, dns, true, 3600);
      runs.push(figures);
      console.log(`\n${report(figures, 3600).join('\n')}`);
      if (process.env.BENCH_AB !== '0') {
        const abFigures = await runCampaign(kind, RECIPIENTS, dns, true, 3600, true);
        runs.push(abFigures);
        console.log(`\n${report(abFigures, 3600).join('\n')}`);
      }
      if (BIG > 0) {
        const bigFigures = await runCampaign(kind, BIG, dns, true, 3600, false, 'html', BIG_KB);
        runs.push(bigFigures);
        console.log(`\n${report(bigFigures, 3600).join('\n')}`);
      }
      if (process.env.BENCH_BLOCKS !== '0') {
        const blockFigures = await runCampaign(kind, RECIPIENTS, dns, true, 3600, false, 'blocks');
        runs.push(blockFigures);
        console.log(`\n${report(blockFigures, 3600).join('\n')}`);
      }
    }
    if (LARGE > 0 && kinds.includes('postgres')) {
      const figures = await runCampaign('postgres', LARGE, dns, false, LARGE_LIMIT_SECONDS);
      runs.push(figures);
      console.log(`\n${report(figures, LARGE_LIMIT_SECONDS).join('\n')}`);
    }
  } finally {
    await dns.close();
  }
  console.log('\ncampaign numbers side by side:');
  for (const f of runs) {
    const ratio = f.baseline
      ? `${fmt(f.delivered / f.seconds / f.baseline.rate, 2)}× of nodemailer (≥ ${fmt(TARGET_RATIO[f.kind], 1)}×)`
      : 'no baseline (size run)';
    const partial = f.delivered < f.recipients ? ` [partial: ${fmt(f.delivered)} delivered]` : '';
    const name =
      `${f.kind}${f.ab ? ' A/B' : ''}${f.format === 'blocks' ? ' blocks' : ''}${f.bodyKb ? ` ${f.bodyKb} KB` : ''} ` +
      `${fmt(f.recipients)}`;
    const cpu = (f.cpuSeconds * 1000) / Math.max(1, f.delivered);
    console.log(
      `  ${name.padEnd(28)} ` +
        `${fmt(f.delivered / f.seconds).padStart(6)} emails/s, ${ratio}; CPU ${fmt(cpu, 2)} ms/email ` +
        `(≤ ${fmt(TARGET_CPU_MS, 1)}); peak RSS ${fmt(f.peakRss)} MB (≤ 200); ` +
        `${fmt(f.after.rows ? f.after.total / f.after.rows : NaN)} bytes/email row (≤ 1,024)${partial}`,
    );
  }
}
