// Resend's webhooks and email metrics through the official SDK against a listening Herald: endpoints of the
// `resend` format receive Resend's events, signed with svix-* headers that the SDK's own verify accepts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { resendBaseUrl, walkResendList } from '../../support/resend.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/** The SDK's verification of a delivery with a secret (it throws when no signature matches). */
const verifyWith = (resend: Resend, secret: string, w: ReceivedWebhook) =>
  resend.webhooks.verify({
    payload: w.body,
    headers: {
      id: String(w.headers['svix-id']),
      timestamp: String(w.headers['svix-timestamp']),
      signature: String(w.headers['svix-signature']),
    },
    webhookSecret: secret,
  });

const dataOf = (w: ReceivedWebhook) => w.json.data as Record<string, unknown>;

describe('Resend webhooks on Herald endpoints', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let quiet: WebhookReceiver;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let resend: Resend;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    quiet = await startWebhookReceiver();
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    sender = await m.verifiedDomain('hooks.test');
    resend = new Resend(sender.project.secretKey, { baseUrl: await resendBaseUrl(m.t.app) });
  });
  afterAll(async () => {
    await m.close();
    await hook.close();
    await quiet.close();
  });

  const herald = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    m.t.app.inject({ method, url, headers: sender.auth, ...(payload ? { payload } : {}) });

  const send = async (to: string) => {
    const sent = await resend.emails.send({
      from: 'Acme <hello@hooks.test>',
      to,
      subject: `Hello ${to}`,
      html: '<p>x</p>',
      tags: [{ name: 'kind', value: 'welcome' }],
    });
    expect(sent.error).toBeNull();
    return sent.data!.id;
  };

  it("creates, reads, updates, lists and removes webhooks in Resend's shapes", async () => {
    const created = await resend.webhooks.create({ endpoint: `${hook.url}/crud`, events: ['email.sent'] });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'webhook', id: expect.any(String), signing_secret: expect.any(String) });
    expect(created.data!.signing_secret).toMatch(/^whsec_/);
    const id = created.data!.id;

    const read = await resend.webhooks.get(id);
    expect(read.data).toEqual({
      object: 'webhook',
      id,
      endpoint: `${hook.url}/crud`,
      events: ['email.sent'],
      status: 'enabled',
      created_at: expect.any(String),
    });
    // Herald's own API shows the endpoint with its format.
    expect((await herald('GET', `/webhooks/${id}`)).json().data).toMatchObject({ format: 'resend', enabled: true });

    const updated = await resend.webhooks.update(id, {
      endpoint: `${hook.url}/moved`,
      events: ['email.bounced', 'email.delivery_delayed'],
      status: 'disabled',
    });
    expect(updated.data).toEqual({ object: 'webhook', id });
    expect((await resend.webhooks.get(id)).data).toMatchObject({
      endpoint: `${hook.url}/moved`,
      events: ['email.bounced', 'email.delivery_delayed'],
      status: 'disabled',
    });

    const more = [];
    for (const n of [1, 2]) {
      const { data } = await resend.webhooks.create({ endpoint: `${hook.url}/${n}`, events: ['contact.created'] });
      more.push(data!.id);
    }
    const { forward, backward } = await walkResendList((page) => resend.webhooks.list(page));
    expect(forward).toEqual([more[1], more[0], id]);
    expect(backward).toEqual(forward);
    const listed = await resend.webhooks.list();
    expect(listed.data!.data[2]).toEqual({
      id,
      endpoint: `${hook.url}/moved`,
      events: ['email.bounced', 'email.delivery_delayed'],
      status: 'disabled',
      created_at: expect.any(String),
    });

    // A replay with the same Idempotency-Key (the SDK sends none here; the API takes it on every POST) answers the
    // same webhook, without the secret and without making a second one.
    const createOnce = () =>
      m.t.app.inject({
        method: 'POST',
        url: '/resend/webhooks',
        headers: { ...sender.auth, 'idempotency-key': 'webhook-once' },
        payload: { endpoint: `${hook.url}/once`, events: ['email.sent'] },
      });
    const first = (await createOnce()).json();
    const replayed = await createOnce();
    expect(first.signing_secret).toMatch(/^whsec_/);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual({ object: 'webhook', id: first.id });
    const stored = await m.t.ctx.db.execute(sql`SELECT response_body FROM idempotency_keys WHERE key = 'webhook-once'`);
    expect(JSON.stringify(stored)).toContain(first.id);
    expect(JSON.stringify(stored)).not.toContain(first.signing_secret);
    more.push(first.id);
    expect((await resend.webhooks.list()).data!.data).toHaveLength(4);

    for (const webhook of [id, ...more]) {
      expect((await resend.webhooks.remove(webhook)).data).toEqual({ object: 'webhook', id: webhook, deleted: true });
    }
    const gone = await resend.webhooks.get(id);
    expect(gone.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await resend.webhooks.list()).data!.data).toEqual([]);
  });

  it("lets Herald's own API choose the format, each taking its own event names", async () => {
    const made = await herald('POST', '/webhooks', {
      url: hook.url,
      format: 'resend',
      events: ['email.delivery_delayed', 'domain.updated'],
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({ format: 'resend', events: ['email.delivery_delayed', 'domain.updated'] });
    expect((await resend.webhooks.get(made.json().data.id)).data!.events).toEqual([
      'email.delivery_delayed',
      'domain.updated',
    ]);
    const heraldName = await herald('POST', '/webhooks', {
      url: hook.url,
      format: 'resend',
      events: ['email.deferred'],
    });
    expect(heraldName.statusCode).toBe(422);
    expect(heraldName.json().error.errors[0]).toMatchObject({ field: 'events.0', code: 'invalid_event' });
    const resendName = await herald('POST', '/webhooks', { url: hook.url, events: ['email.delivery_delayed'] });
    expect(resendName.statusCode).toBe(422);
    expect(resendName.json().error.errors[0]).toMatchObject({ field: 'events.0', code: 'invalid_event' });
    const badFormat = await herald('POST', '/webhooks', { url: hook.url, format: 'svix', events: ['*'] });
    expect(badFormat.statusCode).toBe(422);
    // A resend endpoint's events change only to Resend's names.
    const patched = await m.t.app.inject({
      method: 'PATCH',
      url: `/webhooks/${made.json().data.id}`,
      headers: sender.auth,
      payload: { events: ['email.queued'] },
    });
    expect(patched.statusCode).toBe(422);
    await herald('DELETE', `/webhooks/${made.json().data.id}`);
  });

  it("answers Resend's errors for bad input and unknown ids", async () => {
    const unknownEvent = await resend.webhooks.create({
      endpoint: hook.url,
      events: ['email.exploded' as 'email.sent'],
    });
    expect(unknownEvent.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(unknownEvent.error!.message).toMatch(/^events\.0: /);
    // Herald's own name for a delay is not one of Resend's.
    const heraldName = await resend.webhooks.create({ endpoint: hook.url, events: ['email.deferred' as 'email.sent'] });
    expect(heraldName.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect((await resend.webhooks.create({ endpoint: hook.url, events: [] })).error).toMatchObject({
      statusCode: 422,
      name: 'validation_error',
    });
    const badUrl = await resend.webhooks.create({ endpoint: 'not a url', events: ['email.sent'] });
    expect(badUrl.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(badUrl.error!.message).toMatch(/^endpoint: /);
    const ftp = await resend.webhooks.create({ endpoint: 'ftp://hooks.test/x', events: ['email.sent'] });
    expect(ftp.error).toMatchObject({ statusCode: 422, name: 'validation_error' });

    const unknown = '01890000-0000-7000-8000-000000000000';
    for (const answer of [
      await resend.webhooks.get(unknown),
      await resend.webhooks.get('not-an-id'),
      await resend.webhooks.update(unknown, { status: 'enabled' }),
      await resend.webhooks.remove(unknown),
      await resend.webhooks.rotateSigningSecret(unknown),
      await resend.webhooks.events.list({ webhookId: unknown }),
    ])
      expect(answer.error).toMatchObject({ statusCode: 404, name: 'not_found' });

    const { data } = await resend.webhooks.create({ endpoint: hook.url, events: ['email.sent'] });
    const badStatus = await resend.webhooks.update(data!.id, { status: 'paused' as 'enabled' });
    expect(badStatus.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect((await resend.webhooks.events.get({ webhookId: data!.id, eventId: unknown })).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    expect((await resend.webhooks.events.replay({ webhookId: data!.id, eventId: unknown })).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    const badCursor = await resend.webhooks.events.list({ webhookId: data!.id, after: unknown });
    expect(badCursor.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    // Another project's key sees none of it.
    const other = new Resend((await m.t.createProject('other')).secretKey, { baseUrl: await resendBaseUrl(m.t.app) });
    expect((await other.webhooks.get(data!.id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    await resend.webhooks.remove(data!.id);
  });

  it("delivers a sent email's events under Resend's names and shape, verified by the SDK", async () => {
    const created = await resend.webhooks.create({ endpoint: hook.url, events: ['email.sent', 'email.delivered'] });
    const { id: webhookId, signing_secret: secret } = created.data!;
    // A Herald-format endpoint of the same project keeps Herald's names, body and headers.
    const own = await herald('POST', '/webhooks', { url: quiet.url, events: ['email.queued', 'email.sent'] });
    expect(own.statusCode).toBe(201);
    expect(own.json().data.format).toBe('herald');

    const emailId = await send('ann@dest.test');
    const [delivery] = await hook.waitFor(1, 20_000, (w) => dataOf(w).email_id === emailId);
    expect(delivery!.headers['webhook-id']).toBeUndefined();
    expect(delivery!.headers['svix-id']).toEqual(expect.any(String));
    const event = verifyWith(resend, secret, delivery!);
    expect(event.type).toBe('email.sent');
    expect(JSON.parse(delivery!.body)).toEqual({
      type: 'email.sent',
      created_at: expect.any(String),
      data: {
        created_at: expect.any(String),
        email_id: emailId,
        message_id: expect.stringMatching(/@hooks\.test>$/),
        from: 'hello@hooks.test',
        to: ['ann@dest.test'],
        subject: 'Hello ann@dest.test',
        tags: { kind: 'welcome' },
      },
    });
    expect(() => verifyWith(resend, 'whsec_' + Buffer.alloc(24, 7).toString('base64'), delivery!)).toThrow();

    const heralds = await quiet.waitFor(2, 20_000, (w) => dataOf(w).emailId === emailId);
    expect(heralds.map((w) => w.json.type)).toEqual(['email.queued', 'email.sent']);
    expect(heralds[1]!.headers['webhook-id']).toEqual(expect.any(String));
    expect(heralds[1]!.json.createdAt).toEqual(expect.any(String));
    // email.queued has no Resend name: the resend endpoint got only email.sent for this email.
    expect(hook.received.filter((w) => dataOf(w).email_id === emailId).map((w) => w.json.type)).toEqual(['email.sent']);

    // The delivery is the webhook's event: listed, read with its body, replayed with the same svix-id.
    const eventId = String(delivery!.headers['svix-id']);
    const settled = await until(
      async () => {
        const got = await resend.webhooks.events.get({ webhookId, eventId });
        return got.data?.status === 'success' ? got.data : null;
      },
      'the delivery settled',
      20_000,
      50,
    );
    expect(settled).toMatchObject({
      object: 'webhook_event',
      id: eventId,
      type: 'email.sent',
      next_attempt_at: null,
      payload: JSON.parse(delivery!.body),
    });
    const replay = await resend.webhooks.events.replay({ webhookId, eventId });
    expect(replay.data).toEqual({ object: 'webhook_event', id: eventId });
    const again = await hook.waitFor(2, 20_000, (w) => w.headers['svix-id'] === eventId);
    expect(again[1]!.body).toBe(delivery!.body);
    expect(verifyWith(resend, secret, again[1]!).type).toBe('email.sent');

    for (const to of ['bo@dest.test', 'cy@dest.test']) await send(to);
    const events = await until(
      async () => {
        const page = await resend.webhooks.events.list({ webhookId, limit: 100 });
        const items = page.data?.data ?? [];
        return items.length === 3 && items.every((e) => e.status === 'success') ? items : null;
      },
      'three events delivered',
      20_000,
      50,
    );
    expect(events.at(-1)).toEqual({
      id: eventId,
      type: 'email.sent',
      created_at: expect.any(String),
      status: 'success',
    });
    const { forward, backward } = await walkResendList((page) => resend.webhooks.events.list({ webhookId, ...page }));
    expect(forward).toEqual(events.map((e) => e.id));
    expect(backward).toEqual(forward);
    await resend.webhooks.remove(webhookId);
    await herald('DELETE', `/webhooks/${own.json().data.id}`);
  });

  it('sends nothing to a disabled webhook', async () => {
    const off = await resend.webhooks.create({ endpoint: quiet.url, events: ['email.sent'] });
    const on = await resend.webhooks.create({ endpoint: hook.url, events: ['email.sent'] });
    await resend.webhooks.update(off.data!.id, { status: 'disabled' });
    const before = quiet.received.length;
    const emailId = await send('dee@dest.test');
    // The enabled webhook got the event, so the disabled one had its chance.
    await hook.waitFor(1, 20_000, (w) => dataOf(w).email_id === emailId);
    expect(quiet.received.slice(before).filter((w) => dataOf(w).email_id === emailId)).toEqual([]);
    expect((await resend.webhooks.events.list({ webhookId: off.data!.id })).data!.data).toEqual([]);
    for (const w of [off, on]) await resend.webhooks.remove(w.data!.id);
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const { data } = await resend.webhooks.create({ endpoint: hook.url, events: ['email.sent'] });
    const rotated = await resend.webhooks.rotateSigningSecret(data!.id);
    expect(rotated.data).toEqual({ object: 'webhook', id: data!.id, signing_secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.data!.signing_secret).not.toBe(data!.signing_secret);
    const emailId = await send('eve@dest.test');
    const [w] = await hook.waitFor(1, 20_000, (r) => dataOf(r).email_id === emailId);
    expect(String(w!.headers['svix-signature']).split(' ')).toHaveLength(2);
    expect(verifyWith(resend, rotated.data!.signing_secret, w!).type).toBe('email.sent');
    expect(verifyWith(resend, data!.signing_secret, w!).type).toBe('email.sent');
    await resend.webhooks.remove(data!.id);
  });

  it("answers the project's email metrics in Resend's shape", async () => {
    const project = await m.t.createProject('metrics');
    const own = await m.verifiedDomain('metrics.test', project);
    const client = new Resend(project.secretKey, { baseUrl: await resendBaseUrl(m.t.app) });
    for (const to of ['m1@dest.test', 'm2@dest.test']) {
      const { data } = await client.emails.send({ from: 'a@metrics.test', to, subject: 'M', html: '<p>m</p>' });
      await m.waitForStatus(own.auth, data!.id, ['SENT']);
    }
    const totals = await client.emails.metrics();
    expect(totals.error).toBeNull();
    expect(totals.data).toMatchObject({
      object: 'metrics',
      dimensions: [],
      granularity: 'daily',
      totals: { sent: 2, delivered: 0, bounced: 0, opened: 0, unique_opened: 0, delivery_rate: 0, bounce_rate: 0 },
    });
    expect(totals.data!.data).toBeUndefined();
    expect(totals.data!.metrics).toContain('complaint_rate');

    const today = new Date().toISOString().slice(0, 10);
    const daily = await client.emails.metrics({ dimensions: ['period'], metrics: ['sent', 'failed'] });
    expect(daily.data).toMatchObject({ metrics: ['sent', 'failed'], dimensions: ['period'], totals: { sent: 2 } });
    expect(daily.data!.data).toEqual([{ period: today, sent: 2, failed: 0 }]);
    const monthly = await client.emails.metrics({ dimensions: ['period'], granularity: 'monthly', metrics: ['sent'] });
    expect(monthly.data!.data).toEqual([{ period: `${today.slice(0, 8)}01`, sent: 2 }]);
    const broadcasts = await client.emails.metrics({ dimensions: ['broadcast'], metrics: ['sent'] });
    expect(broadcasts.data!.data).toEqual([]);

    for (const bad of [
      { metrics: ['received' as const] },
      { dimensions: ['domain' as const] },
      { dimensions: ['period' as const], granularity: 'hourly' as const },
      { timezone: 'Mars/Olympus' },
      { startDate: 'yesterday' },
      { startDate: '2026-01-01', endDate: '2020-01-01' },
      { domainId: ['x'] },
    ]) {
      const answer = await client.emails.metrics(bad);
      expect(answer.error, JSON.stringify(bad)).toMatchObject({ statusCode: 422, name: 'validation_error' });
    }
  });
});

describe('Resend webhooks and private addresses (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;
  let resend: Resend;

  beforeAll(async () => {
    t = await createTestApp();
    resend = new Resend((await t.createProject()).secretKey, { baseUrl: await resendBaseUrl(t.app) });
  });
  afterAll(() => t.close());

  it.each(['https://127.0.0.1/hook', 'https://10.0.0.1/hook', 'https://localhost/hook', 'http://hooks.example.com/x'])(
    'refuses %s as Herald does',
    async (endpoint) => {
      const created = await resend.webhooks.create({ endpoint, events: ['email.sent'] });
      expect(created.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect(created.error!.message).toMatch(/^endpoint: /);
    },
  );

  it('takes a public https endpoint, and refuses a private one in an update', async () => {
    const { data, error } = await resend.webhooks.create({
      endpoint: 'https://hooks.example.com/x',
      events: ['*' as 'email.sent'],
    });
    // `*` is Herald's, not one of Resend's names.
    expect(data).toBeNull();
    expect(error).toMatchObject({ statusCode: 422 });
    const created = await resend.webhooks.create({ endpoint: 'https://hooks.example.com/x', events: ['email.sent'] });
    expect(created.error).toBeNull();
    const moved = await resend.webhooks.update(created.data!.id, { endpoint: 'https://169.254.169.254/latest' });
    expect(moved.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect((await resend.webhooks.get(created.data!.id)).data!.endpoint).toBe('https://hooks.example.com/x');
  });
});
