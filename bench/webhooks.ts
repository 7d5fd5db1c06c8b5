/**
 * Webhooks must not slow sending: a 10,000-email campaign through a real `herald serve` on PostgreSQL, once
 * without and once with an endpoint subscribed to `*` (whatever events the send emits: at least every
 * email's `email.sent` and the campaign's `campaign.sent`; the count by type is printed). Prints the campaign's send
 * rate both ways, the webhook deliveries per second and the lag from an event (its createdAt) to its arrival at the
 * receiver, p50 and p99. BENCH_RECIPIENTS changes the size; BENCH_DB=pglite runs on the embedded database instead.
 */
import os from 'node:os';
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhook-receiver.ts';
import { startHeraldProcess, type HeraldProcess } from './herald-process.ts';
import { until } from '../test/support/until.ts';
import { fmt, percentile, postgresAvailable, type DbKind } from './support.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);

/**
 * Sends one campaign to every contact; resolves with emails/s from the send request to the last message at the sink.
 */
async function sendCampaign(herald: HeraldProcess, sink: SmtpSink, name: string): Promise<number> {
  const campaign = await herald.api('POST', '/campaigns', {
    name,
    audienceType: 'ALL',
    from: 'news@hooks.bench.test',
    subject: 'News for {{ firstName }}',
    body:
      '<p>Hello {{ firstName }}, <a href="https://hooks.bench.test/a">read</a>. <a ' +
      'href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
  });
  sink.clear();
  const started = performance.now();
  await herald.api('POST', `/campaigns/${campaign.id}/send`);
  await until(() => sink.messages.length >= RECIPIENTS, 'every message', 1_800_000, 50);
  const rate = RECIPIENTS / ((performance.now() - started) / 1000);
  await until(
    async () => (await herald.api('GET', `/campaigns/${campaign.id}`)).status === 'SENT',
    'SENT',
    300_000,
    200,
  );
  return rate;
}

export default async function run(): Promise<void> {
  const kind: DbKind = process.env.BENCH_DB === 'pglite' || !(await postgresAvailable()) ? 'pglite' : 'postgres';
  const sink = await startSmtpSink();
  const dns = await startDnsServer({});
  const hook: WebhookReceiver = await startWebhookReceiver();
  const herald = await startHeraldProcess({
    kind,
    sink,
    dns,
    domain: 'hooks.bench.test',
    contacts: RECIPIENTS,
    env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  try {
    await herald.restart();
    const without = await sendCampaign(herald, sink, 'without');
    const endpoint = await herald.api('POST', '/webhooks', { url: hook.url, events: ['*'] });
    hook.received.length = 0;
    const withRate = await sendCampaign(herald, sink, 'with');
    const ofType = (type: string) => hook.received.filter((w) => w.json.type === type).length;
    await until(
      () => ofType('email.sent') >= RECIPIENTS && ofType('campaign.sent') >= 1,
      'every email.sent and campaign.sent',
      1_800_000,
      100,
    );
    // Then until nothing more arrives for 2 s (events of other types may still be on their way).
    let seen = -1;
    await until(
      () => {
        const quiet = seen === hook.received.length;
        seen = hook.received.length;
        return quiet;
      },
      'the last webhook',
      600_000,
      2000,
    );
    const types = new Map<string, number>();
    for (const w of hook.received) types.set(w.json.type, (types.get(w.json.type) ?? 0) + 1);
    const lags = hook.received.map((w) => w.at.getTime() - Date.parse(w.json.createdAt)).sort((a, b) => a - b);
    const first = Math.min(...hook.received.map((w) => Date.parse(w.json.createdAt)));
    const last = Math.max(...hook.received.map((w) => w.at.getTime()));
    const deliveries = await herald.api('GET', `/webhooks/${endpoint.id}/deliveries?status=FAILED&limit=1`);
    console.log(
      `\nwebhooks benchmark: ${fmt(RECIPIENTS)}-email campaign, ${kind}, ` +
        `one herald serve process, SEND_RATE_PER_SECOND=0, ${os.cpus().length} ` +
        `CPUs`,
    );
    console.log(`  campaign send rate without a webhook endpoint: ${fmt(without)} emails/s`);
    console.log(
      `  campaign send rate with an endpoint on "*":    ${fmt(withRate)} ` +
        `emails/s (${fmt((withRate / without) * 100)} %)`,
    );
    console.log(
      `  webhook deliveries: ${fmt(hook.received.length)} in ${fmt((last - first) / 1000, 1)} ` +
        `s → ${fmt(hook.received.length / ((last - first) / 1000))} deliveries/s, ` +
        `${fmt(deliveries.total)} failed` +
        ` (${[...types].map(([type, n]) => `${type} ${fmt(n)}`).join(', ')})`,
    );
    console.log(
      `  lag from event to delivery: p50 ${fmt(percentile(lags, 50))} ms, p99 ${fmt(percentile(lags, 99))} ms`,
    );
  } finally {
    await herald.close();
    await hook.close();
    await sink.close();
    await dns.close();
  }
}
