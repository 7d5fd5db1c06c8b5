/**
 * `npm run bench -- retention`: the email-content retention job on PostgreSQL while a campaign sends.
 *
 * One `herald serve` on PostgreSQL with BENCH_RECIPIENTS (20,000) contacts, and BENCH_EXPIRED (1,000,000) finished
 * emails 100 days old, written straight into the emails table, in thirds taken in turn: untracked transactional mail
 * with BENCH_BODY_BYTES (1,000) of HTML, tracked transactional mail with as much HTML and a link, and tracked campaign
 * copies of one shared content of about that size (whose links retention finds by rendering each recipient's copy
 * again: a per-recipient link, one inside `{% if %}`, static ones, the preference and unsubscribe links). First a
 * campaign to every contact alone (the rate without retention); then a second campaign while the retention
 * function (the daily job's own code, run from this process on the same database) drops the expired content and
 * keeps the tracked emails' link targets. Prints the job's duration and rows/s, the link targets kept, and both
 * campaigns' emails/s. Progress goes to stderr.
 */
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { openDatabase } from '../src/db/client.ts';
import { dropExpiredEmailContent } from '../src/modules/emails/emails.retention.ts';
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { until } from '../test/support/until.ts';
import { APP_SECRET, startHeraldProcess, type HeraldProcess } from './herald-process.ts';
import { fmt, machineLine, postgresAvailable } from './support.ts';
import { ProcessResources } from '../src/lib/process-resources.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
const EXPIRED = Number(process.env.BENCH_EXPIRED ?? 1_000_000);
const BODY_BYTES = Number(process.env.BENCH_BODY_BYTES ?? 1_000);
const SEED_CHUNK = 100_000;
const DOMAIN = 'retention.bench.test';

/** The expired campaign's content: a newsletter's links (see the top of this file), padded to BODY_BYTES. */
const NEWSLETTER =
  '<p>Hello {{ firstName }},</p><p><a href="https://example.com/read?u={{ email | url_encode }}">read on</a></p>' +
  '{% if vip %}<p><a href="https://example.com/vip">for you</a></p>{% endif %}' +
  '<p><a href="https://example.com/a">a</a> <a href="https://example.com/b">b</a> ' +
  '<a href="https://example.com/c">c</a></p>' +
  '<p><a href="{{ manageUrl }}">preferences</a> <a href="{{ unsubscribeUrl }}">unsubscribe</a></p>';

/** Writes `EXPIRED` finished emails of the project, 100 days old, in chunks (progress to stderr). */
async function seedExpired(herald: HeraldProcess, projectId: string): Promise<void> {
  const started = performance.now();
  const body = NEWSLETTER + '<p>old</p>'.repeat(Math.max(0, Math.floor((BODY_BYTES - NEWSLETTER.length) / 10)));
  const [content] = await herald.query<{ id: string }>(
    `INSERT INTO email_contents (id, project_id, subject, html) VALUES ` +
      `(gen_random_uuid(), $1, 'Old news', $2) RETURNING id`,
    [projectId, body],
  );
  for (let done = 0; done < EXPIRED; done += SEED_CHUNK) {
    const n = Math.min(SEED_CHUNK, EXPIRED - done);
    // g % 3: 0 untracked transactional, 1 tracked transactional with a link, 2 a tracked campaign copy.
    await herald.query(
      `INSERT INTO emails (id, project_id, contact_id, source_type, source_id, to_email, from_email, subject, html,
                           text,
                           content_id, variables,
                           marketing, tracking, status, sent_at, created_at, updated_at)
       SELECT gen_random_uuid(), $1, CASE WHEN g % 3 = 2 THEN gen_random_uuid() END, CASE WHEN g % 3 = 2 THEN
         'CAMPAIGN' ELSE 'TRANSACTIONAL' END,
              CASE WHEN g % 3 = 2 THEN $5::uuid END, 'old' || g || '@dest.test', 'app@${DOMAIN}', 'Old news',
              CASE g % 3 WHEN 0 THEN repeat('<p>old</p>', $2 / 10) WHEN 1 THEN
                '<p><a href="https://example.com/order/' || g || '">your
                order</a></p>' || repeat('<p>old</p>', $2 / 10) END,
              CASE WHEN g % 3 < 2 THEN 'old' END, CASE WHEN g % 3 = 2 THEN $5::uuid END,
              CASE WHEN g % 3 = 2 THEN jsonb_build_object('email', 'old' || g || '@dest.test', 'firstName', 'Reader '
                || g, 'vip', g % 10 = 2) END,
              g % 3 = 2, g % 3 > 0, 'SENT', now() - interval '100 days', now() - interval '100 days' + g * interval
                '1 millisecond', now() - interval '100 days'
       FROM generate_series($3::int, $4::int) g`,
      [projectId, BODY_BYTES, done + 1, done + n, content!.id],
    );
    console.error(
      `[retention] ${fmt(done + n)} expired emails written (${fmt((performance.now() - started) / 1000, 1)} s)`,
    );
  }
  await herald.query('ANALYZE emails');
}

/** Sends a campaign to every contact and answers its rate (emails/s), measured at the sink. */
async function sendCampaign(
  herald: HeraldProcess,
  sink: SmtpSink,
  name: string,
): Promise<{ rate: number; seconds: number }> {
  sink.clear();
  const campaign = await herald.api('POST', '/campaigns', {
    name,
    audienceType: 'ALL',
    from: `news@${DOMAIN}`,
    subject: 'News for {{ firstName }}',
    body: '<p>Hello {{ firstName }}, <a href="https://example.com/a">read on</a>.</p>',
  });
  const started = performance.now();
  await herald.api('POST', `/campaigns/${campaign.id}/send`);
  await until(() => sink.perRecipient.size >= RECIPIENTS, 'every recipient', 1_800_000, 20);
  const seconds = (performance.now() - started) / 1000;
  return { rate: RECIPIENTS / seconds, seconds };
}

export default async function run(): Promise<void> {
  console.log(`retention benchmark · ${await machineLine()}`);
  if (!(await postgresAvailable())) {
    console.log('PostgreSQL is not reachable (BENCH_DATABASE_URL): this bench runs on PostgreSQL only');
    return;
  }
  const dns = await startDnsServer({});
  const sink = await startSmtpSink();
  const herald = await startHeraldProcess({ kind: 'postgres', sink, dns, domain: DOMAIN, contacts: RECIPIENTS });
  const database = await openDatabase({ databaseUrl: herald.databaseUrl!, poolSize: 2 });
  // What the job needs of herald serve's context: the database, and how its links are signed.
  const ctx = {
    db: database.db,
    logger: pino({ level: 'warn' }),
    config: { publicUrl: `https://mail.${DOMAIN}` },
    secrets: { appSecret: APP_SECRET },
    resources: new ProcessResources(),
  };
  try {
    const [domain] = await herald.query<{ project_id: string }>('SELECT project_id FROM domains WHERE domain = $1', [
      DOMAIN,
    ]);
    await seedExpired(herald, domain!.project_id);
    const alone = await sendCampaign(herald, sink, 'alone');
    console.error(`[retention] campaign alone: ${fmt(alone.rate)} emails/s`);

    let job: { seconds: number; dropped: number; endedAt: number } | null = null;
    const jobStarted = performance.now();
    const running = dropExpiredEmailContent({ ctx, days: 90 }).then((dropped) => {
      job = { dropped, seconds: (performance.now() - jobStarted) / 1000, endedAt: performance.now() };
    });
    const beside = await sendCampaign(herald, sink, 'beside retention');
    const campaignEnded = performance.now();
    await running;
    const finished = job as unknown as { seconds: number; dropped: number; endedAt: number };
    const [left] = await database.db
      .execute(
        sql`SELECT count(*)::int AS n FROM emails WHERE content_dropped_at IS NULL AND created_at < now() - interval
          '90 days'`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    const [kept] = await database.db
      .execute(
        sql`SELECT count(*)::int AS n, coalesce(avg(pg_column_size(link_targets)), 0)::int AS bytes FROM emails WHERE
          link_targets IS NOT NULL`,
      )
      .then((r) => (r as unknown as { rows: { n: number; bytes: number }[] }).rows);
    const overlap =
      finished.endedAt >= campaignEnded
        ? 'the whole campaign'
        : `${fmt((finished.endedAt - jobStarted) / 1000, 1)} s of it`;

    console.log(
      `postgres, ${fmt(EXPIRED)} expired emails (${fmt(BODY_BYTES)} B ` +
        `of HTML each), ${fmt(RECIPIENTS)}-recipient campaigns, one herald ` +
        `serve:`,
    );
    console.log(
      `  retention job        ${fmt(finished.dropped)} emails' content ` +
        `dropped in ${fmt(finished.seconds, 1)} s → ${fmt(finished.dropped / finished.seconds)} ` +
        `emails/s (batches of 500; ${fmt(left!.n)} left)`,
    );
    console.log(`  link targets kept    of ${fmt(kept!.n)} tracked emails, ${fmt(kept!.bytes)} B each on average`);
    console.log(`  campaign alone       ${fmt(alone.rate)} emails/s (${fmt(alone.seconds, 1)} s)`);
    console.log(
      `  campaign beside it   ${fmt(beside.rate)} emails/s (${fmt(beside.seconds, 1)} ` +
        `s; the job ran during ${overlap}) → ${fmt(beside.rate / alone.rate, 2)}× ` +
        `the rate alone`,
    );
  } finally {
    await ctx.resources.close();
    await database.close();
    await herald.close();
    await sink.close();
    await dns.close();
  }
}
