// /v1/send at parity with hosted email APIs: cc/bcc as one message, reply-to lists, text, inline images, tags,
// scheduling (cancel, reschedule), batches, and the webhook events they raise. Real SMTP sink, real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { rowsOf } from '../../../src/db/rows.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

describe('/v1/send additions', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let hook: WebhookReceiver;

  beforeAll(async () => {
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    auth = (await m.verifiedDomain('example.test')).auth;
    hook = await startWebhookReceiver();
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: auth,
      payload: { url: hook.url, events: ['email.scheduled', 'email.cancelled', 'email.suppressed', 'email.sent'] },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
  afterAll(async () => {
    await hook.close();
    await m.close();
  });

  const send = (payload: unknown, url = '/v1/send', headers: Record<string, string> = {}) =>
    m.t.app.inject({
      method: 'POST',
      url,
      headers: { ...auth, ...headers },
      payload: payload as Record<string, unknown>,
    });
  const getEmail = async (id: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: auth })).json().data;
  const base = { from: 'hello@example.test', subject: 'Hi', body: '<p>Hello</p>' };
  const countEmails = async () =>
    Number(rowsOf<{ n: number }>(await m.t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM emails`))[0]!.n);

  it('sends one message to to + cc + bcc: one record, RCPT TO for all, To and Cc headers, no Bcc header', async () => {
    const res = await send({
      ...base,
      to: ['a@dest.test', { name: 'Bo', email: 'b@dest.test' }],
      cc: 'c@dest.test',
      bcc: ['d@dest.test'],
      replyTo: ['r1@example.test', 'r2@example.test'],
      text: 'Plain words',
    });
    expect(res.statusCode, res.body).toBe(200);
    const emails = res.json().data.emails as {
      contact: { id: string; email: string };
      email: string;
      status: string;
    }[];
    expect(emails.map((e) => e.contact.email)).toEqual(['a@dest.test', 'b@dest.test', 'c@dest.test', 'd@dest.test']);
    expect(new Set(emails.map((e) => e.email)).size).toBe(1);
    expect(new Set(emails.map((e) => e.contact.id)).size).toBe(4);
    const email = await m.waitForStatus(auth, emails[0]!.email, ['SENT']);
    expect(email).toMatchObject({
      to: ['a@dest.test', 'b@dest.test'],
      cc: ['c@dest.test'],
      bcc: ['d@dest.test'],
      replyTo: ['r1@example.test', 'r2@example.test'],
    });
    const received = m.sink.messages.filter((msg) => msg.to.includes('d@dest.test'));
    expect(received).toHaveLength(1);
    expect([...received[0]!.to].sort()).toEqual(['a@dest.test', 'b@dest.test', 'c@dest.test', 'd@dest.test']);
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.headers.get('bcc')).toBeUndefined();
    expect(received[0]!.raw.toString('latin1')).not.toMatch(/^Bcc:/im);
    const addresses = (v: unknown) => (v as { value: { address: string }[] }).value.map((a) => a.address);
    expect(addresses(parsed.to)).toEqual(['a@dest.test', 'b@dest.test']);
    expect(addresses(parsed.cc)).toEqual(['c@dest.test']);
    expect(addresses(parsed.replyTo)).toEqual(['r1@example.test', 'r2@example.test']);
    expect(parsed.text?.trim()).toBe('Plain words');
  });

  it('without cc/bcc still sends each to its own message', async () => {
    const res = await send({ ...base, to: ['solo1@dest.test', 'solo2@dest.test'] });
    const emails = res.json().data.emails as { email: string }[];
    expect(new Set(emails.map((e) => e.email)).size).toBe(2);
    await Promise.all(emails.map((e) => m.waitForStatus(auth, e.email, ['SENT'])));
    expect(m.sink.messages.filter((msg) => msg.to.includes('solo1@dest.test')).map((msg) => msg.to)).toEqual([
      ['solo1@dest.test'],
    ]);
  });

  it('leaves suppressed addresses out of the envelope; all suppressed → SUPPRESSED and email.suppressed', async () => {
    for (const email of ['gone1@dest.test', 'gone2@dest.test']) {
      expect(
        (await m.t.app.inject({ method: 'POST', url: '/suppressions', headers: auth, payload: { email } })).statusCode,
      ).toBe(201);
    }
    const some = await send({ ...base, to: 'live@dest.test', cc: 'gone1@dest.test' });
    const [live, gone] = some.json().data.emails as { email: string; status: string }[];
    expect([live!.status, gone!.status]).toEqual(['QUEUED', 'SUPPRESSED']);
    await m.waitForStatus(auth, live!.email, ['SENT']);
    expect(m.sink.messages.filter((msg) => msg.to.includes('live@dest.test')).map((msg) => msg.to)).toEqual([
      ['live@dest.test'],
    ]);
    const all = await send({ ...base, to: 'gone1@dest.test', bcc: 'gone2@dest.test' });
    const ids = all.json().data.emails as { email: string; status: string }[];
    expect(ids.map((e) => e.status)).toEqual(['SUPPRESSED', 'SUPPRESSED']);
    expect((await getEmail(ids[0]!.email)).status).toBe('SUPPRESSED');
    await hook.waitFor(1, 20_000, (w) => w.json.type === 'email.suppressed' && w.json.data.emailId === ids[0]!.email);
  });

  it(
    'leaves unsubscribed contacts out of a marketing message to several; none left → ' + 'SUPPRESSED (UNSUBSCRIBED)',
    async () => {
      const tpl = await m.t.app.inject({
        method: 'POST',
        url: '/templates',
        headers: auth,
        payload: {
          name: 'Digest',
          subject: 'Digest',
          body: '<p>News</p>',
          type: 'MARKETING',
          from: 'hello@example.test',
        },
      });
      expect(tpl.statusCode, tpl.body).toBe(201);
      const template = tpl.json().data.id as string;
      const contact = (email: string, subscribed: boolean) =>
        m.t.app.inject({ method: 'POST', url: '/contacts', headers: auth, payload: { email, subscribed } });
      for (const [email, subscribed] of [
        ['reads@dest.test', true],
        ['left@dest.test', false],
        ['left2@dest.test', false],
      ] as const) {
        expect((await contact(email, subscribed)).statusCode).toBeLessThan(300);
      }
      const some = await send({ to: 'reads@dest.test', cc: 'left@dest.test', template });
      expect(some.statusCode, some.body).toBe(200);
      const [reads, left] = some.json().data.emails as { email: string; status: string }[];
      expect([reads!.status, left!.status]).toEqual(['QUEUED', 'SUPPRESSED']);
      await m.waitForStatus(auth, reads!.email, ['SENT']);
      expect(m.sink.messages.filter((msg) => msg.to.includes('reads@dest.test')).map((msg) => msg.to)).toEqual([
        ['reads@dest.test'],
      ]);
      const none = await send({ to: 'left@dest.test', bcc: 'left2@dest.test', template });
      const ids = none.json().data.emails as { email: string; status: string }[];
      expect(ids.map((e) => e.status)).toEqual(['SUPPRESSED', 'SUPPRESSED']);
      expect(await getEmail(ids[0]!.email)).toMatchObject({ status: 'SUPPRESSED', statusReason: 'UNSUBSCRIBED' });
      expect(m.sink.messages.some((msg) => msg.to.includes('left2@dest.test'))).toBe(false);
    },
  );

  it('sends an attachment with contentId inline, with that Content-ID', async () => {
    const res = await send({
      ...base,
      to: 'img@dest.test',
      body: '<img src="cid:logo@acme">',
      attachments: [{ filename: 'logo.png', content: PNG, contentType: 'image/png', contentId: 'logo@acme' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    await m.waitForStatus(auth, res.json().data.emails[0].email, ['SENT']);
    const parsed = await simpleParser(m.sink.messages.find((msg) => msg.to.includes('img@dest.test'))!.raw);
    expect(parsed.attachments[0]).toMatchObject({
      cid: 'logo@acme',
      contentDisposition: 'inline',
      contentType: 'image/png',
    });
  });

  it('keeps tags on the email, in its webhooks, and filters the list by name:value', async () => {
    const res = await send({
      ...base,
      to: 'tagged@dest.test',
      tags: [
        { name: 'category', value: 'welcome' },
        { name: 'tier', value: 'gold_1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.emails[0].email as string;
    await send({ ...base, to: 'untagged@dest.test', tags: [{ name: 'category', value: 'other' }] });
    expect((await getEmail(id)).tags).toEqual([
      { name: 'category', value: 'welcome' },
      { name: 'tier', value: 'gold_1' },
    ]);
    const list = await m.t.app.inject({ method: 'GET', url: '/emails?tag=category:welcome', headers: auth });
    expect(list.json().data.items.map((e: { id: string }) => e.id)).toEqual([id]);
    const [sent] = await hook.waitFor(1, 20_000, (w) => w.json.type === 'email.sent' && w.json.data.emailId === id);
    expect(sent!.json.data.tags).toEqual([
      { name: 'category', value: 'welcome' },
      { name: 'tier', value: 'gold_1' },
    ]);
    const bad = await m.t.app.inject({ method: 'GET', url: '/emails?tag=category', headers: auth });
    expect(bad.statusCode).toBe(422);
  });

  it('schedules: SCHEDULED until its time, then sent; email.scheduled announces it', async () => {
    const at = new Date(Date.now() + 2_000).toISOString();
    const res = await send({ ...base, to: 'later@dest.test', scheduledAt: at });
    expect(res.statusCode, res.body).toBe(200);
    const { email: id, status } = res.json().data.emails[0];
    expect(status).toBe('SCHEDULED');
    expect(await getEmail(id)).toMatchObject({ status: 'SCHEDULED', scheduledAt: at });
    const [event] = await hook.waitFor(
      1,
      20_000,
      (w) => w.json.type === 'email.scheduled' && w.json.data.emailId === id,
    );
    expect(event!.json.data.scheduledAt).toBe(at);
    const sent = await m.waitForStatus(auth, id, ['SENT']);
    expect(Date.parse(String(sent.sentAt))).toBeGreaterThanOrEqual(Date.parse(at));
  });

  it('reschedules and cancels a scheduled email; 409 once it is not SCHEDULED (or sent)', async () => {
    const res = await send({ ...base, to: 'moved@dest.test', scheduledAt: inMinutes(60) });
    const id = res.json().data.emails[0].email as string;
    const later = inMinutes(120);
    const moved = await m.t.app.inject({
      method: 'PATCH',
      url: `/emails/${id}`,
      headers: auth,
      payload: { scheduledAt: later },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.scheduledAt).toBe(later);
    const past = await m.t.app.inject({
      method: 'PATCH',
      url: `/emails/${id}`,
      headers: auth,
      payload: { scheduledAt: inMinutes(-1) },
    });
    expect(past.statusCode).toBe(422);
    const cancelled = await m.t.app.inject({ method: 'POST', url: `/emails/${id}/cancel`, headers: auth });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.status).toBe('CANCELLED');
    await hook.waitFor(1, 20_000, (w) => w.json.type === 'email.cancelled' && w.json.data.emailId === id);
    const again = await m.t.app.inject({
      method: 'PATCH',
      url: `/emails/${id}`,
      headers: auth,
      payload: { scheduledAt: later },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().success).toBe(false);

    const now = await send({ ...base, to: 'now@dest.test' });
    const nowId = now.json().data.emails[0].email as string;
    await m.waitForStatus(auth, nowId, ['SENT']);
    expect((await m.t.app.inject({ method: 'POST', url: `/emails/${nowId}/cancel`, headers: auth })).statusCode).toBe(
      409,
    );
    expect(
      (
        await m.t.app.inject({
          method: 'PATCH',
          url: `/emails/${nowId}`,
          headers: auth,
          payload: { scheduledAt: later },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await m.t.app.inject({
          method: 'POST',
          url: '/emails/00000000-0000-4000-8000-000000000000/cancel',
          headers: auth,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses bad input with a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ scheduledAt: inMinutes(-5) }, 'scheduledAt'],
      [{ scheduledAt: new Date(Date.now() + 31 * 86_400_000).toISOString() }, 'scheduledAt'],
      [{ scheduledAt: 'tomorrow' }, 'scheduledAt'],
      [
        {
          to: Array.from({ length: 40 }, (_, i) => `t${i}@dest.test`),
          cc: Array.from({ length: 11 }, (_, i) => `c${i}@dest.test`),
        },
        'to',
      ],
      [{ tags: [{ name: 'has space', value: 'x' }] }, 'tags.0.name'],
      [{ tags: Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, value: 'v' })) }, 'tags'],
      [{ replyTo: Array.from({ length: 6 }, (_, i) => `r${i}@example.test`) }, 'replyTo'],
    ];
    const before = await countEmails();
    for (const [extra, field] of cases) {
      const res = await send({ ...base, to: 'x@dest.test', ...extra });
      expect(res.statusCode, JSON.stringify(extra).slice(0, 80)).toBe(422);
      expect(res.json().success).toBe(false);
      expect(res.json().error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(await countEmails()).toBe(before);
    const fifty = await send({
      ...base,
      to: Array.from({ length: 49 }, (_, i) => `f${i}@dest.test`),
      bcc: 'fifty@dest.test',
    });
    expect(fifty.statusCode, fifty.body).toBe(200);
  });

  it('sends a batch in order, and a batch with one bad item queues nothing', async () => {
    const before = await countEmails();
    const bad = await send(
      [
        { ...base, to: 'b0@dest.test' },
        { ...base, to: 'b1@dest.test' },
        { ...base, to: 'b2@dest.test' },
        { ...base, to: 'not-an-address' },
      ],
      '/v1/send/batch',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.errors[0].field).toMatch(/^3\.to/);
    const foreign = await send(
      [
        { ...base, to: 'b0@dest.test' },
        { ...base, to: 'b1@dest.test', from: 'x@unverified.test' },
      ],
      '/v1/send/batch',
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.errors[0].field).toMatch(/^1/);
    expect(await countEmails()).toBe(before);
    expect((await send([], '/v1/send/batch')).statusCode).toBe(422);
    const broken = await send(
      [
        { ...base, to: 'b0@dest.test' },
        { ...base, to: 'b1@dest.test', body: '<p>{% if %}</p>' },
      ],
      '/v1/send/batch',
    );
    expect(broken.statusCode).toBe(422);
    expect(broken.json().error.errors[0].field).toMatch(/^1\.body/);
    expect(await countEmails()).toBe(before);
    // One new address in two items: one contact, two emails.
    const twice = await send(
      [
        { ...base, to: 'twice@dest.test' },
        { ...base, to: 'twice@dest.test', subject: 'Again' },
      ],
      '/v1/send/batch',
    );
    expect(twice.statusCode, twice.body).toBe(200);
    const [first, second] = (
      twice.json().data.results as { emails: { contact: { id: string }; email: string }[] }[]
    ).map((r) => r.emails[0]!);
    expect(first!.contact.id).toBe(second!.contact.id);
    expect(first!.email).not.toBe(second!.email);
    const afterTwice = await countEmails();

    const items = [
      { ...base, to: 'o0@dest.test' },
      { ...base, to: 'o1@dest.test', cc: 'o1c@dest.test' },
      { ...base, to: 'o2@dest.test', scheduledAt: inMinutes(30) },
    ];
    const key = { 'idempotency-key': `batch-${Date.now()}` };
    const ok = await send(items, '/v1/send/batch', key);
    expect(ok.statusCode, ok.body).toBe(200);
    const results = ok.json().data.results as { emails: { contact: { email: string }; status: string }[] }[];
    expect(results.map((r) => r.emails.map((e) => `${e.contact.email}:${e.status}`))).toEqual([
      ['o0@dest.test:QUEUED'],
      ['o1@dest.test:QUEUED', 'o1c@dest.test:QUEUED'],
      ['o2@dest.test:SCHEDULED'],
    ]);
    expect(await countEmails()).toBe(afterTwice + 3);
    const replay = await send(items, '/v1/send/batch', key);
    expect(replay.json()).toEqual(ok.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await countEmails()).toBe(afterTwice + 3);
  });
});
