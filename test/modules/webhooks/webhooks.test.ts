// Webhooks out, against a real HTTP server that verifies every request with `standardwebhooks`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';

type Auth = { authorization: string };

const verify = (secret: string, w: ReceivedWebhook) =>
  new Webhook(secret).verify(w.body, w.headers as Record<string, string>);

describe('webhooks out', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let auth: Auth;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    auth = (await m.verifiedDomain('example.test')).auth;
  });
  afterAll(async () => {
    await m.close();
    await hook.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, a: Auth = auth) =>
    m.t.app.inject({ method, url, headers: a, ...(payload ? { payload } : {}) });
  const register = async (events: string[], url = hook.url) => {
    const res = await api('POST', '/webhooks', { url, events });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; secret: string };
  };

  it('creates, lists, reads, updates and deletes endpoints; the secret is shown once', async () => {
    const created = await register(['email.sent'], `${hook.url}/crud`);
    expect(created.secret).toMatch(/^whsec_/);
    const read = (await api('GET', `/webhooks/${created.id}`)).json().data;
    expect(read).toMatchObject({ id: created.id, url: `${hook.url}/crud`, events: ['email.sent'], enabled: true });
    expect(read.secret).toBeUndefined();
    expect((await api('GET', '/webhooks')).json().data.items.map((w: { id: string }) => w.id)).toContain(created.id);
    const patched = await api('PATCH', `/webhooks/${created.id}`, { events: ['email.bounced', '*'], enabled: false });
    expect(patched.json().data).toMatchObject({ events: ['*'], enabled: false });
    expect((await api('DELETE', `/webhooks/${created.id}`)).json().data).toEqual({ id: created.id, deleted: true });
    expect((await api('GET', `/webhooks/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses unknown event types and malformed URLs with 422', async () => {
    const bad = await api('POST', '/webhooks', { url: hook.url, events: ['email.exploded'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.errors[0].field).toBe('events.0');
    expect((await api('POST', '/webhooks', { url: 'ftp://x.test/', events: ['*'] })).statusCode).toBe(422);
    expect((await api('POST', '/webhooks', { url: 'not a url', events: ['*'] })).statusCode).toBe(422);
  });

  it('pushes the email events of a send, signed so that standardwebhooks verifies them', async () => {
    const { id, secret } = await register(['*']);
    const send = await api('POST', '/v1/send', {
      to: 'r1@dest.test',
      from: 'a@example.test',
      subject: 'Hello',
      body: '<p>x</p>',
    });
    const emailId = send.json().data.emails[0].email as string;
    const mine = (w: ReceivedWebhook) => (w.json.data as { emailId?: string }).emailId === emailId;
    const got = await hook.waitFor(2, 20_000, mine);
    expect(got.map((w) => w.json.type)).toEqual(['email.queued', 'email.sent']);
    for (const w of got) expect(verify(secret, w)).toMatchObject({ type: w.json.type });
    expect(got[1]!.json.data).toMatchObject({
      emailId,
      to: 'r1@dest.test',
      from: 'a@example.test',
      subject: 'Hello',
      source: { type: 'TRANSACTIONAL', id: null },
    });
    expect(got[1]!.headers['content-type']).toBe('application/json');
    const deliveries = await until(
      async () => {
        const page = (await api('GET', `/webhooks/${id}/deliveries?status=SUCCEEDED`)).json().data;
        return page.total >= 2 ? page : null;
      },
      'both deliveries settled',
      20_000,
      50,
    );
    expect(deliveries.items[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 1, responseStatus: 200 });
    await api('DELETE', `/webhooks/${id}`);
  });

  it('retries a failing receiver with the same webhook-id and a fresh timestamp', async () => {
    const { id, secret } = await register(['email.sent']);
    hook.failNext(500);
    const test = await api('POST', `/webhooks/${id}/test`);
    expect(test.json().data).toMatchObject({
      eventType: 'webhook.test',
      status: 'PENDING',
      attempts: 1,
      responseStatus: 500,
    });
    const attempts = await hook.waitFor(2, 20_000, (w) => w.json.type === 'webhook.test');
    expect(attempts[0]!.headers['webhook-id']).toBe(attempts[1]!.headers['webhook-id']);
    expect(Number(attempts[1]!.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(attempts[0]!.headers['webhook-timestamp']),
    );
    expect(verify(secret, attempts[1]!)).toMatchObject({ type: 'webhook.test' });
    const deliveryId = test.json().data.id as string;
    const settled = await until(
      async () => {
        const list = (await api('GET', `/webhooks/${id}/deliveries`)).json().data.items as {
          id: string;
          status: string;
          attempts: number;
        }[];
        const delivery = list.find((d) => d.id === deliveryId);
        return delivery?.status === 'SUCCEEDED' ? delivery : null;
      },
      'the retried delivery settled',
      20_000,
      50,
    );
    expect(settled).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    await api('DELETE', `/webhooks/${id}`);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const { id, secret: old } = await register(['email.sent']);
    const rotated = (await api('POST', `/webhooks/${id}/rotate-secret`)).json().data as { secret: string };
    expect(rotated.secret).not.toBe(old);
    const before = hook.received.length;
    expect((await api('POST', `/webhooks/${id}/test`)).json().data.status).toBe('SUCCEEDED');
    const w = hook.received[before]!;
    expect(String(w.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, w)).toBeTruthy();
    expect(verify(old, w)).toBeTruthy();
    await api('DELETE', `/webhooks/${id}`);
  });

  it('disables an endpoint that answers 410, and a manual retry sends the delivery again once re-enabled', async () => {
    const { id } = await register(['email.sent']);
    hook.failNext(410);
    const test = (await api('POST', `/webhooks/${id}/test`)).json().data;
    expect(test).toMatchObject({ status: 'FAILED', responseStatus: 410 });
    expect((await api('GET', `/webhooks/${id}`)).json().data).toMatchObject({
      enabled: false,
      disabledReason: expect.stringContaining('410'),
    });
    await api('PATCH', `/webhooks/${id}`, { enabled: true });
    const retried = await api('POST', `/webhooks/${id}/deliveries/${test.id}/retry`);
    expect(retried.json().data.status).toBe('PENDING');
    const both = await hook.waitFor(2, 20_000, (w) => w.headers['webhook-id'] === test.id);
    expect(both.map((w) => w.json.type)).toEqual(['webhook.test', 'webhook.test']);
    await api('DELETE', `/webhooks/${id}`);
  });

  it('disables an endpoint that has been failing for five days', async () => {
    const { id } = await register(['email.sent']);
    await m.t.ctx.db.execute(
      sql`UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE id = ${id}::uuid`,
    );
    hook.failNext(503);
    await api('POST', `/webhooks/${id}/test`);
    expect((await api('GET', `/webhooks/${id}`)).json().data).toMatchObject({
      enabled: false,
      disabledReason: expect.stringContaining('5 days'),
    });
    await api('DELETE', `/webhooks/${id}`);
  });

  it("answers 404 for another project's endpoint", async () => {
    const { id } = await register(['email.sent']);
    const other = (await m.t.createProject('other')).auth;
    expect((await api('GET', `/webhooks/${id}`, undefined, other)).statusCode).toBe(404);
    expect((await api('POST', `/webhooks/${id}/test`, undefined, other)).statusCode).toBe(404);
    expect((await api('GET', `/webhooks/${id}/deliveries`, undefined, other)).statusCode).toBe(404);
    await api('DELETE', `/webhooks/${id}`);
  });
});

describe('webhook events of contacts, campaigns and workflows', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let auth: Auth;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    auth = (await m.verifiedDomain('example.test')).auth;
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: auth,
      payload: { url: hook.url, events: ['*'] },
    });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => {
    await m.close();
    await hook.close();
  });
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  const typesFor = (key: string, value: string) => (w: ReceivedWebhook) =>
    (w.json.data as Record<string, unknown>)[key] === value;

  it(
    'pushes contact.created, updated, unsubscribed and deleted — and nothing for a ' + 'call that changes nothing',
    async () => {
      const created = await api('POST', '/contacts', { email: 'c1@dest.test', data: { plan: 'free' } });
      const id = created.json().data.id as string;
      await api('POST', '/contacts', { email: 'c1@dest.test', data: { plan: 'free' } }); // no change
      await api('PATCH', `/contacts/${id}`, { data: { plan: 'pro' } });
      await api('PATCH', `/contacts/${id}`, { subscribed: false });
      await api('DELETE', `/contacts/${id}`);
      const got = await hook.waitFor(5, 20_000, typesFor('contactId', id));
      expect(got.map((w) => w.json.type)).toEqual([
        'contact.created',
        'contact.updated',
        'contact.updated',
        'contact.unsubscribed',
        'contact.deleted',
      ]);
      expect(got[1]!.json.data).toMatchObject({ email: 'c1@dest.test', data: { plan: 'pro' }, subscribed: true });
    },
  );

  it('pushes campaign.sending and campaign.sent', async () => {
    await api('POST', '/contacts', { email: 'reader@dest.test' });
    const campaign = await api('POST', '/campaigns', {
      name: 'Hooks',
      subject: 'Hi',
      body: '<p>Hi</p>',
      from: 'news@example.test',
      audienceType: 'ALL',
    });
    const id = campaign.json().data.id as string;
    expect((await api('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
    const got = await hook.waitFor(2, 30_000, typesFor('campaignId', id));
    expect(got.map((w) => w.json.type)).toEqual(['campaign.sending', 'campaign.sent']);
  });

  it('pushes workflow.execution.completed', async () => {
    const workflow = await api('POST', '/workflows', {
      name: 'tag',
      enabled: true,
      trigger: { type: 'EVENT', event: 'signup' },
      steps: [{ type: 'UPDATE_CONTACT', data: { tagged: true } }],
    });
    expect(workflow.statusCode, workflow.body).toBe(201);
    await api('POST', '/track', { email: 'wf@dest.test', event: 'signup' });
    const [done] = await hook.waitFor(1, 30_000, (w) => w.json.type === 'workflow.execution.completed');
    expect(done!.json.data).toMatchObject({ workflowId: workflow.json().data.id });
  });
});
