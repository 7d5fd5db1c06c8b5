// A webhook delivery is queued in the transaction of the change that caused it, so a process
// killed (SIGKILL) between the event and the delivery still delivers it after restart, with its webhook-id.
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../support/child.ts';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

describe(`webhooks survive kill -9 (${testDatabaseKind})`, () => {
  let hook: WebhookReceiver | null = null;
  const world = crashWorld({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { sink: false });
  afterAll(async () => {
    await hook?.close();
  });

  it('delivers after restart an event committed before the kill', { timeout: 120_000 }, async () => {
    const { h, dns } = world;
    const hookPort = await freePort(); // nothing listens there until after the kill
    await h.start();
    const auth = await h.projectWithDomain(dns, 'hooks.test');
    const endpoint = (
      await h.api('POST', '/webhooks', { url: `http://127.0.0.1:${hookPort}/hooks`, events: ['email.queued'] }, auth)
    ).body.data;
    const sent = await h.api(
      'POST',
      '/v1/send',
      { to: 'r@dest.test', from: 'a@hooks.test', subject: 'Hi', body: '<p>x</p>' },
      auth,
    );
    const emailId = sent.body.data.emails[0].email as string;
    await h.kill('SIGKILL');

    hook = await startWebhookReceiver({ port: hookPort });
    await h.start();
    const [received] = await hook.waitFor(1, 60_000, (w) => w.json.type === 'email.queued');
    expect(received!.json.data).toMatchObject({ emailId, to: 'r@dest.test' });
    expect(
      new Webhook(endpoint.secret).verify(received!.body, received!.headers as Record<string, string>),
    ).toBeTruthy();
    await until(
      async () => {
        const deliveries = (await h.api('GET', `/webhooks/${endpoint.id}/deliveries`, undefined, auth)).body.data;
        expect(deliveries.items).toHaveLength(1);
        expect(deliveries.items[0].id).toBe(received!.headers['webhook-id']);
        return deliveries.items[0].status === 'SUCCEEDED';
      },
      'the delivery settled',
      30_000,
    );
  });
});
