// Double opt-in: POST /v1/subscribe with public and secret keys, the confirmation email through SMTP, the
// confirmUrl pages (GET shows, POST confirms), resend pacing (none within 10 minutes, one after), nothing sent to
// subscribed addresses, and the bad inputs: forged links and forms from other sites change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { createConfirmToken, createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('double opt-in', () => {
  let m: MailFixture;
  let auth: Auth;
  let pk: Auth;
  let bare: { sk: Auth; pk: Auth };
  let projectId: string;
  let topic: string;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Auth = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contactOf = async (email: string) => (await call('GET', `/contacts?email=${email}`)).json().data.items[0] as { id: string; subscribed: boolean; data: Record<string, unknown> } | undefined;
  /** The emails the project has for an address: queued in the request's own transaction, so counted at once. */
  const emailsTo = async (to: string) => (await call('GET', `/emails?to=${to}`)).json().data.total as number;
  const confirmationOf = async (id: string) => (await call('GET', `/contacts/${id}/confirmation`)).json().data as { status: string; sentAt: string | null; confirmedAt: string | null };
  const confirmLinkIn = async (to: string) => {
    const message = m.sink.messages.find((msg) => msg.to.includes(to));
    if (!message) return null;
    const parsed = await simpleParser(message.raw);
    const url = /href="(https:\/\/mail\.herald\.test\/confirm\/[^"]+)"/.exec(String(parsed.html))?.[1];
    return url ? new URL(url).pathname : null;
  };

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('optin.test');
    auth = sender.auth;
    projectId = sender.project.id;
    pk = { authorization: `Bearer ${sender.project.publicKey}` };
    const template = await call('POST', '/templates', { name: 'Confirm', subject: 'Confirm your address', body: '<p><a href="{{confirmUrl}}">Confirm</a></p>', type: 'MARKETING', from: 'hello@optin.test' });
    const set = await call('PATCH', '/settings', { doubleOptIn: { templateId: template.json().data.id } });
    expect(set.statusCode, set.body).toBe(200);
    topic = (await call('POST', '/topics', { name: 'Weekly', defaultSubscription: 'OPT_IN' })).json().data.id;
    const plain = await m.t.createProject('No opt-in');
    bare = { sk: plain.auth, pk: { authorization: `Bearer ${plain.publicKey}` } };
  });
  afterAll(() => m.close());

  it('a public-key signup creates a pending contact, mails the confirmation, and the POST of its page confirms', async () => {
    const res = await call('POST', '/v1/subscribe', { email: 'New@Reader.test', data: { source: 'footer' }, topics: [topic] }, pk);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'new@reader.test', status: 'PENDING', confirmation: { status: 'PENDING', sentAt: expect.any(String) } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const contact = (await contactOf('new@reader.test'))!;
    expect(contact).toMatchObject({ subscribed: false, data: { source: 'footer' } });
    const pending = (await call('GET', `/contacts/${contact.id}/confirmation`)).json().data;
    expect(pending).toEqual({ status: 'PENDING', sentAt: res.json().data.confirmation.sentAt, confirmedAt: null });
    expect((await call('GET', `/contacts/${contact.id}/topics`)).json().data).toEqual([expect.objectContaining({ topicId: topic, subscribed: true })]);

    await m.sink.waitForMessages(1);
    const path = (await confirmLinkIn('new@reader.test'))!;
    expect(path).toBeTruthy();
    // A GET (a link scanner) shows the page and confirms nothing.
    const page = await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect((await contactOf('new@reader.test'))!.subscribed).toBe(false);

    const confirmed = await m.t.app.inject({ method: 'POST', url: path, headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.body).toContain('You are subscribed');
    expect((await contactOf('new@reader.test'))!.subscribed).toBe(true);
    expect((await call('GET', `/contacts/${contact.id}/confirmation`)).json().data).toMatchObject({ status: 'CONFIRMED', sentAt: pending.sentAt, confirmedAt: expect.any(String) });
    const names = (await call('GET', `/events?contactId=${contact.id}&limit=10`)).json().data.items.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['contact.confirmed', 'contact.subscribed']));
    // Confirming again records nothing more.
    await m.t.app.inject({ method: 'POST', url: path });
    expect((await call('GET', `/events?contactId=${contact.id}&name=contact.confirmed`)).json().data.items).toHaveLength(1);
    const again = await call('POST', '/v1/subscribe', { email: 'new@reader.test' }, pk);
    expect(again.json().data).toMatchObject({ status: 'SUBSCRIBED', confirmation: { status: 'CONFIRMED' } });
  });

  it('a public key never changes an existing contact; repeated signups resend at most once per 10 minutes', async () => {
    await call('POST', '/contacts', { email: 'known@reader.test', subscribed: false, data: { plan: 'pro' } });
    const first = await call('POST', '/v1/subscribe', { email: 'known@reader.test', data: { plan: 'hacked' }, topics: [topic] }, pk);
    expect(first.json().data.status).toBe('PENDING');
    const second = await call('POST', '/v1/subscribe', { email: 'known@reader.test' }, pk);
    expect(second.json().data.confirmation.sentAt).toBe(first.json().data.confirmation.sentAt);
    const known = (await contactOf('known@reader.test'))!;
    expect(known).toMatchObject({ subscribed: false, data: { plan: 'pro' } });
    expect((await call('GET', `/contacts/${known.id}/topics`)).json().data[0].subscribed).toBe(false);
    await m.sink.waitForMessages(2);
    expect(m.sink.messages.filter((msg) => msg.to.includes('known@reader.test'))).toHaveLength(1);

    // A subscribed contact: nothing changes and nothing is sent.
    await call('POST', '/contacts', { email: 'happy@reader.test', data: { plan: 'free' } });
    const subscribed = await call('POST', '/v1/subscribe', { email: 'happy@reader.test', data: { plan: 'hacked' } }, pk);
    expect(subscribed.json().data).toMatchObject({ status: 'SUBSCRIBED', confirmation: null });
    expect((await contactOf('happy@reader.test'))!.data).toEqual({ plan: 'free' });
    expect(await emailsTo('happy@reader.test')).toBe(0);
    expect((await confirmationOf((await contactOf('happy@reader.test'))!.id)).status).toBe('NONE');
    // A secret key may update the data of an existing contact.
    await call('POST', '/v1/subscribe', { email: 'happy@reader.test', data: { plan: 'team' } });
    expect((await contactOf('happy@reader.test'))!.data).toEqual({ plan: 'team' });
  });

  it('resends a pending confirmation once 10 minutes have passed since the last one, and not before', async () => {
    const first = (await call('POST', '/v1/subscribe', { email: 'slow@reader.test' }, pk)).json().data as { contact: string; confirmation: { sentAt: string } };
    expect(await emailsTo('slow@reader.test')).toBe(1);
    const backdate = (interval: string) => m.t.ctx.db.execute(sql`UPDATE contact_confirmations SET sent_at = now() - ${interval}::interval WHERE contact_id = ${first.contact}::uuid`);

    await backdate('9 minutes 50 seconds');
    const early = (await call('POST', '/v1/subscribe', { email: 'slow@reader.test' }, pk)).json().data;
    expect(early.status).toBe('PENDING');
    expect(await emailsTo('slow@reader.test')).toBe(1);
    const heldAt = (await confirmationOf(first.contact)).sentAt!;
    expect(new Date(heldAt).getTime()).toBeLessThan(new Date(first.confirmation.sentAt).getTime());

    await backdate('10 minutes 1 second');
    const resent = (await call('POST', '/v1/subscribe', { email: 'slow@reader.test' }, pk)).json().data;
    expect(resent).toMatchObject({ status: 'PENDING', confirmation: { status: 'PENDING' } });
    expect(new Date(resent.confirmation.sentAt).getTime()).toBeGreaterThan(new Date(heldAt).getTime());
    expect(await emailsTo('slow@reader.test')).toBe(2);
    await m.sink.waitForRecipient('slow@reader.test');
    await until(() => m.sink.perRecipient.get('slow@reader.test') === 2, 'the second confirmation email');
    // And the next one waits 10 minutes again.
    await call('POST', '/v1/subscribe', { email: 'slow@reader.test' }, pk);
    expect(await emailsTo('slow@reader.test')).toBe(2);
  });

  it('a secret-key signup of an existing unsubscribed contact updates it, keeps it out until it confirms, and sends the email', async () => {
    const id = (await call('POST', '/contacts', { email: 'former@reader.test', subscribed: false, data: { plan: 'free' } })).json().data.id as string;
    const res = await call('POST', '/v1/subscribe', { email: 'former@reader.test', data: { plan: 'team' }, topics: [topic] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ contact: id, status: 'PENDING', confirmation: { status: 'PENDING', sentAt: expect.any(String) } });
    expect(await contactOf('former@reader.test')).toMatchObject({ id, subscribed: false, data: { plan: 'team' } });
    expect((await call('GET', `/contacts/${id}/topics`)).json().data).toEqual([expect.objectContaining({ topicId: topic, subscribed: true })]);
    expect(await emailsTo('former@reader.test')).toBe(1);
    await m.sink.waitForRecipient('former@reader.test');
    const path = (await confirmLinkIn('former@reader.test'))!;
    const confirmed = await m.t.app.inject({ method: 'POST', url: path, headers: { accept: 'text/html' } });
    expect(confirmed.statusCode).toBe(200);
    expect((await contactOf('former@reader.test'))!.subscribed).toBe(true);
  });

  it('without doubleOptIn: 409 for a public key, an immediate subscription for a secret key', async () => {
    expectError(await call('POST', '/v1/subscribe', { email: 'x@reader.test' }, bare.pk), 409, 'CONFLICT');
    const res = await call('POST', '/v1/subscribe', { email: 'x@reader.test' }, bare.sk);
    expect(res.json().data).toMatchObject({ status: 'SUBSCRIBED', confirmation: null });
    expect((await call('GET', `/contacts/${res.json().data.contact}/confirmation`, undefined, bare.sk)).json().data).toEqual({ status: 'NONE', sentAt: null, confirmedAt: null });
    expectError(await call('GET', `/contacts/${res.json().data.contact}/confirmation`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/contacts/not-an-id/confirmation'), 404, 'NOT_FOUND');
  });

  it('refuses bad input, forged and expired links', async () => {
    expectValidation(await call('POST', '/v1/subscribe', { email: 'not an address' }, pk), 'email');
    expectValidation(await call('POST', '/v1/subscribe', { email: 'y@reader.test', topics: [crypto.randomUUID()] }, pk), 'topics.0');
    expect(await contactOf('y@reader.test')).toBeUndefined();
    const contact = (await call('POST', '/contacts', { email: 'late@reader.test', subscribed: false })).json().data as { id: string };
    const expired = createConfirmToken(APP_SECRET, { projectId, contactId: contact.id }, Date.now() - 8 * 24 * 3600_000);
    expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${expired}` }), 410, 'GONE');
    const page = await m.t.app.inject({ method: 'GET', url: `/confirm/${expired}`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('expired');
    const valid = createConfirmToken(APP_SECRET, { projectId, contactId: contact.id });
    expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${valid.slice(0, -2)}xx` }), 404, 'NOT_FOUND');
    expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${createConfirmToken('another-secret-0123456789abcdefghijklmnop', { projectId, contactId: contact.id })}` }), 404, 'NOT_FOUND');
    expect((await contactOf('late@reader.test'))!.subscribed).toBe(false);
  });

  it('changes nothing for a forged confirmation link (GET or POST) or a Confirm posted from another site', async () => {
    const signup = (await call('POST', '/v1/subscribe', { email: 'pending@reader.test' }, pk)).json().data as { contact: string };
    const before = await confirmationOf(signup.contact);
    expect(before.status).toBe('PENDING');
    const valid = createConfirmToken(APP_SECRET, { projectId, contactId: signup.contact });
    const forged = [
      `${valid.slice(0, -3)}${valid.endsWith('AAA') ? 'BBB' : 'AAA'}`, // a damaged signature
      createConfirmToken('another-secret-0123456789abcdefghijklmnop', { projectId, contactId: signup.contact }),
      createUnsubscribeToken(APP_SECRET, { projectId, contactId: signup.contact }), // a link of another purpose
    ];
    for (const token of forged) {
      const page = await m.t.app.inject({ method: 'GET', url: `/confirm/${token}`, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('not valid');
      expectError(await m.t.app.inject({ method: 'GET', url: `/confirm/${token}` }), 404, 'NOT_FOUND');
      const posted = await m.t.app.inject({ method: 'POST', url: `/confirm/${token}`, headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
      expect(posted.statusCode).toBe(404);
    }
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }, { origin: 'null' }]) {
      expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${valid}`, headers }), 403, 'FORBIDDEN');
    }
    expect((await contactOf('pending@reader.test'))!.subscribed).toBe(false);
    expect(await confirmationOf(signup.contact)).toEqual(before);
    expect((await call('GET', `/events?contactId=${signup.contact}&name=contact.confirmed`)).json().data.items).toEqual([]);
  });
});
