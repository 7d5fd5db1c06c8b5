// Double opt-in: POST /v1/subscribe with public and secret keys, the confirmation email through SMTP, the
// confirmUrl pages (GET shows, POST confirms), resend pacing (none within 10 minutes, one after), nothing sent to
// subscribed addresses, one answer to a public key whatever the address (nobody learns who is on the list), and
// the bad inputs: forged links and forms from other sites change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { createConfirmToken, createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { expectError, expectValidation, stableError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

const OTHER_SECRET = 'another-secret-0123456789abcdefghijklmnop';

type Auth = { authorization: string };

/** What a public key gets for any address: 202 and no data. */
const ACCEPTED = { status: 202, body: JSON.stringify({ success: true, data: null }) };

describe('double opt-in', () => {
  let m: MailFixture;
  let auth: Auth;
  let pk: Auth;
  let bare: { sk: Auth; pk: Auth };
  let projectId: string;
  let topic: string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Auth = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contactOf = async (email: string) =>
    (await call('GET', `/contacts?email=${email}`)).json().data.items[0] as
      | { id: string; subscribed: boolean; data: Record<string, unknown> }
      | undefined;
  /** The emails the project has for an address: queued in the request's own transaction, so counted at once. */
  const emailsTo = async (to: string) => (await call('GET', `/emails?to=${to}`)).json().data.total as number;
  const confirmationOf = async (id: string) =>
    (await call('GET', `/contacts/${id}/confirmation`)).json().data as {
      status: string;
      sentAt: string | null;
      confirmedAt: string | null;
    };
  /** A public-key signup: its status and body, as the browser of a signup form sees them. */
  const signup = async (payload: object) => {
    const res = await call('POST', '/v1/subscribe', payload, pk);
    return { status: res.statusCode, body: res.body };
  };
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
    const template = await call('POST', '/templates', {
      name: 'Confirm',
      subject: 'Confirm your address',
      body: '<p><a href="{{confirmUrl}}">Confirm</a></p>',
      type: 'MARKETING',
      from: 'hello@optin.test',
    });
    const set = await call('PATCH', '/settings', { doubleOptIn: { templateId: template.json().data.id } });
    expect(set.statusCode, set.body).toBe(200);
    topic = (await call('POST', '/topics', { name: 'Weekly', defaultSubscription: 'OPT_IN' })).json().data.id;
    const plain = await m.t.createProject('No opt-in');
    bare = { sk: plain.auth, pk: { authorization: `Bearer ${plain.publicKey}` } };
  });
  afterAll(() => m.close());

  it(
    'a public-key signup creates a pending contact, mails the confirmation, and the ' + 'POST of its page confirms',
    async () => {
      const res = await call(
        'POST',
        '/v1/subscribe',
        { email: 'New@Reader.test', data: { source: 'footer' }, topics: [topic] },
        pk,
      );
      expect({ status: res.statusCode, body: res.body }).toEqual(ACCEPTED);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const contact = (await contactOf('new@reader.test'))!;
      expect(contact).toMatchObject({ subscribed: false, data: { source: 'footer' } });
      const pending = await confirmationOf(contact.id);
      expect(pending).toEqual({ status: 'PENDING', sentAt: expect.any(String), confirmedAt: null });
      expect((await call('GET', `/contacts/${contact.id}/topics`)).json().data).toEqual([
        expect.objectContaining({ topicId: topic, subscribed: true }),
      ]);

      await m.sink.waitForMessages(1);
      const path = (await confirmLinkIn('new@reader.test'))!;
      expect(path).toBeTruthy();
      // A GET (a link scanner) shows the page and confirms nothing.
      const page = await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<form method="post"');
      expect((await contactOf('new@reader.test'))!.subscribed).toBe(false);

      const confirmed = await m.t.app.inject({
        method: 'POST',
        url: path,
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.body).toContain('You are subscribed');
      expect((await contactOf('new@reader.test'))!.subscribed).toBe(true);
      expect((await call('GET', `/contacts/${contact.id}/confirmation`)).json().data).toMatchObject({
        status: 'CONFIRMED',
        sentAt: pending.sentAt,
        confirmedAt: expect.any(String),
      });
      const names = (await call('GET', `/events?contactId=${contact.id}&limit=10`))
        .json()
        .data.items.map((e: { name: string }) => e.name);
      expect(names).toEqual(expect.arrayContaining(['contact.confirmed', 'contact.subscribed']));
      // Confirming again records nothing more.
      await m.t.app.inject({ method: 'POST', url: path });
      expect(
        (await call('GET', `/events?contactId=${contact.id}&name=contact.confirmed`)).json().data.items,
      ).toHaveLength(1);
      expect(await signup({ email: 'new@reader.test' })).toEqual(ACCEPTED);
      const told = (await call('POST', '/v1/subscribe', { email: 'new@reader.test' })).json().data;
      expect(told).toMatchObject({ status: 'SUBSCRIBED', confirmation: { status: 'CONFIRMED' } });
    },
  );

  it(
    'a public key never changes an existing contact; repeated signups resend at most ' + 'once per 10 minutes',
    async () => {
      const knownId = (
        await call('POST', '/contacts', { email: 'known@reader.test', subscribed: false, data: { plan: 'pro' } })
      ).json().data.id;
      expect(await signup({ email: 'known@reader.test', data: { plan: 'hacked' }, topics: [topic] })).toEqual(ACCEPTED);
      const first = await confirmationOf(knownId);
      expect(first).toMatchObject({ status: 'PENDING', sentAt: expect.any(String) });
      expect(await signup({ email: 'known@reader.test' })).toEqual(ACCEPTED);
      expect(await confirmationOf(knownId)).toEqual(first);
      const known = (await contactOf('known@reader.test'))!;
      expect(known).toMatchObject({ id: knownId, subscribed: false, data: { plan: 'pro' } });
      expect((await call('GET', `/contacts/${known.id}/topics`)).json().data[0].subscribed).toBe(false);
      await m.sink.waitForMessages(2);
      expect(m.sink.messages.filter((msg) => msg.to.includes('known@reader.test'))).toHaveLength(1);

      // A subscribed contact: nothing changes and nothing is sent.
      await call('POST', '/contacts', { email: 'happy@reader.test', data: { plan: 'free' } });
      expect(await signup({ email: 'happy@reader.test', data: { plan: 'hacked' } })).toEqual(ACCEPTED);
      expect((await contactOf('happy@reader.test'))!.data).toEqual({ plan: 'free' });
      expect(await emailsTo('happy@reader.test')).toBe(0);
      expect((await confirmationOf((await contactOf('happy@reader.test'))!.id)).status).toBe('NONE');
      // A secret key may update the data of an existing contact.
      await call('POST', '/v1/subscribe', { email: 'happy@reader.test', data: { plan: 'team' } });
      expect((await contactOf('happy@reader.test'))!.data).toEqual({ plan: 'team' });
    },
  );

  it(
    'answers a public key the same for a new, a pending, a subscribed and an ' +
      'unsubscribed address, and still does the work',
    async () => {
      await call('POST', '/contacts', { email: 'member@reader.test', data: { plan: 'free' } });
      const leftId = (
        await call('POST', '/contacts', { email: 'left@reader.test', subscribed: false, data: { plan: 'pro' } })
      ).json().data.id as string;
      const answers = {
        new: await signup({ email: 'fresh@reader.test', data: { source: 'form' } }),
        pending: await signup({ email: 'fresh@reader.test', data: { source: 'again' } }),
        subscribed: await signup({ email: 'member@reader.test', data: { plan: 'hacked' } }),
        unsubscribed: await signup({ email: 'left@reader.test', data: { plan: 'hacked' } }),
      };
      expect(answers).toEqual({ new: ACCEPTED, pending: ACCEPTED, subscribed: ACCEPTED, unsubscribed: ACCEPTED });

      // The new address: one contact, unsubscribed and PENDING, one confirmation email for both signups.
      const fresh = (await contactOf('fresh@reader.test'))!;
      expect(fresh).toMatchObject({ subscribed: false, data: { source: 'form' } });
      expect(await confirmationOf(fresh.id)).toMatchObject({
        status: 'PENDING',
        sentAt: expect.any(String),
        confirmedAt: null,
      });
      expect(await emailsTo('fresh@reader.test')).toBe(1);
      // The subscribed address: unchanged, nothing sent.
      const member = (await contactOf('member@reader.test'))!;
      expect(member).toMatchObject({ subscribed: true, data: { plan: 'free' } });
      expect((await confirmationOf(member.id)).status).toBe('NONE');
      expect(await emailsTo('member@reader.test')).toBe(0);
      // The unsubscribed contact: unchanged, PENDING, one confirmation email.
      expect(await contactOf('left@reader.test')).toMatchObject({
        id: leftId,
        subscribed: false,
        data: { plan: 'pro' },
      });
      expect((await confirmationOf(leftId)).status).toBe('PENDING');
      expect(await emailsTo('left@reader.test')).toBe(1);
      await m.sink.waitForRecipient('fresh@reader.test');
      await m.sink.waitForRecipient('left@reader.test');
      expect(
        m.sink.messages.filter((msg) => msg.to.includes('fresh@reader.test') || msg.to.includes('left@reader.test')),
      ).toHaveLength(2);

      // A secret key still gets the contact and its state.
      const pendingNow = await confirmationOf(fresh.id);
      const known = await call('POST', '/v1/subscribe', { email: 'fresh@reader.test' });
      expect(known.statusCode, known.body).toBe(200);
      const pendingAnswer = {
        contact: fresh.id,
        email: 'fresh@reader.test',
        status: 'PENDING',
        confirmation: { status: 'PENDING', sentAt: pendingNow.sentAt },
      };
      expect(known.json().data).toEqual(pendingAnswer);
      const subscribed = await call('POST', '/v1/subscribe', { email: 'member@reader.test' });
      expect(subscribed.statusCode, subscribed.body).toBe(200);
      expect(subscribed.json().data).toEqual({
        contact: member.id,
        email: 'member@reader.test',
        status: 'SUBSCRIBED',
        confirmation: null,
      });
    },
  );

  it(
    'gives a public key the same error for a subscribed address as for a new one when ' +
      'the project cannot send the confirmation',
    async () => {
      const { project: other, domainId } = await m.verifiedDomain('gone.test', await m.t.createProject('Sender gone'));
      const otherPk = { authorization: `Bearer ${other.publicKey}` };
      const confirm = {
        name: 'Confirm',
        subject: 'Confirm',
        body: '<p><a href="{{confirmUrl}}">Confirm</a></p>',
        type: 'MARKETING',
        from: 'hello@gone.test',
      };
      const template = await call('POST', '/templates', confirm, other.auth);
      expect(
        (await call('PATCH', '/settings', { doubleOptIn: { templateId: template.json().data.id } }, other.auth))
          .statusCode,
      ).toBe(200);
      // The sender domain goes away after double opt-in was set up.
      expect((await call('DELETE', `/domains/${domainId}`, undefined, other.auth)).statusCode).toBe(200);
      await call('POST', '/contacts', { email: 'member@reader.test' }, other.auth);
      const fresh = await call('POST', '/v1/subscribe', { email: 'stranger@reader.test' }, otherPk);
      const member = await call('POST', '/v1/subscribe', { email: 'member@reader.test' }, otherPk);
      expectError(fresh, 403, 'DOMAIN_NOT_VERIFIED');
      expect(stableError(member)).toEqual(stableError(fresh));
      // A secret key is told about the subscribed contact, as before.
      expect(
        (await call('POST', '/v1/subscribe', { email: 'member@reader.test' }, other.auth)).json().data,
      ).toMatchObject({ status: 'SUBSCRIBED' });
    },
  );

  it('resends a pending confirmation once 10 minutes have passed since the last one, and not before', async () => {
    expect(await signup({ email: 'slow@reader.test' })).toEqual(ACCEPTED);
    expect(await emailsTo('slow@reader.test')).toBe(1);
    const id = (await contactOf('slow@reader.test'))!.id;
    const firstSentAt = (await confirmationOf(id)).sentAt!;
    const backdate = (interval: string) =>
      m.t.ctx.db.execute(
        sql`UPDATE contacts SET confirmation_sent_at = now() - ${interval}::interval WHERE id = ${id}::uuid`,
      );

    await backdate('9 minutes 50 seconds');
    expect(await signup({ email: 'slow@reader.test' })).toEqual(ACCEPTED);
    expect(await emailsTo('slow@reader.test')).toBe(1);
    const heldAt = (await confirmationOf(id)).sentAt!;
    expect(new Date(heldAt).getTime()).toBeLessThan(new Date(firstSentAt).getTime());

    await backdate('10 minutes 1 second');
    expect(await signup({ email: 'slow@reader.test' })).toEqual(ACCEPTED);
    const resent = await confirmationOf(id);
    expect(resent.status).toBe('PENDING');
    expect(new Date(resent.sentAt!).getTime()).toBeGreaterThan(new Date(heldAt).getTime());
    expect(await emailsTo('slow@reader.test')).toBe(2);
    await m.sink.waitForRecipient('slow@reader.test');
    await until(() => m.sink.perRecipient.get('slow@reader.test') === 2, 'the second confirmation email');
    // And the next one waits 10 minutes again.
    await call('POST', '/v1/subscribe', { email: 'slow@reader.test' }, pk);
    expect(await emailsTo('slow@reader.test')).toBe(2);
  });

  it(
    'a secret-key signup of an existing unsubscribed contact updates it, keeps it out ' +
      'until it confirms, and sends the email',
    async () => {
      const id = (
        await call('POST', '/contacts', { email: 'former@reader.test', subscribed: false, data: { plan: 'free' } })
      ).json().data.id as string;
      const res = await call('POST', '/v1/subscribe', {
        email: 'former@reader.test',
        data: { plan: 'team' },
        topics: [topic],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        contact: id,
        status: 'PENDING',
        confirmation: { status: 'PENDING', sentAt: expect.any(String) },
      });
      expect(await contactOf('former@reader.test')).toMatchObject({ id, subscribed: false, data: { plan: 'team' } });
      expect((await call('GET', `/contacts/${id}/topics`)).json().data).toEqual([
        expect.objectContaining({ topicId: topic, subscribed: true }),
      ]);
      expect(await emailsTo('former@reader.test')).toBe(1);
      await m.sink.waitForRecipient('former@reader.test');
      const path = (await confirmLinkIn('former@reader.test'))!;
      const confirmed = await m.t.app.inject({ method: 'POST', url: path, headers: { accept: 'text/html' } });
      expect(confirmed.statusCode).toBe(200);
      expect((await contactOf('former@reader.test'))!.subscribed).toBe(true);
    },
  );

  it('without doubleOptIn: 409 for a public key, an immediate subscription for a secret key', async () => {
    expectError(await call('POST', '/v1/subscribe', { email: 'x@reader.test' }, bare.pk), 409, 'CONFLICT');
    const res = await call('POST', '/v1/subscribe', { email: 'x@reader.test' }, bare.sk);
    expect(res.json().data).toMatchObject({ status: 'SUBSCRIBED', confirmation: null });
    expect(
      (await call('GET', `/contacts/${res.json().data.contact}/confirmation`, undefined, bare.sk)).json().data,
    ).toEqual({ status: 'NONE', sentAt: null, confirmedAt: null });
    expectError(await call('GET', `/contacts/${res.json().data.contact}/confirmation`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/contacts/not-an-id/confirmation'), 404, 'NOT_FOUND');
  });

  it('refuses bad input, forged and expired links', async () => {
    expectValidation(await call('POST', '/v1/subscribe', { email: 'not an address' }, pk), 'email');
    expectValidation(
      await call('POST', '/v1/subscribe', { email: 'y@reader.test', topics: [crypto.randomUUID()] }, pk),
      'topics.0',
    );
    expect(await contactOf('y@reader.test')).toBeUndefined();
    const contact = (await call('POST', '/contacts', { email: 'late@reader.test', subscribed: false })).json().data as {
      id: string;
    };
    const expired = createConfirmToken(
      APP_SECRET,
      { projectId, contactId: contact.id },
      Date.now() - 8 * 24 * 3600_000,
    );
    expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${expired}` }), 410, 'GONE');
    const page = await m.t.app.inject({ method: 'GET', url: `/confirm/${expired}`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('expired');
    const valid = createConfirmToken(APP_SECRET, { projectId, contactId: contact.id });
    expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${valid.slice(0, -2)}xx` }), 404, 'NOT_FOUND');
    expectError(
      await m.t.app.inject({
        method: 'POST',
        url: `/confirm/${createConfirmToken(OTHER_SECRET, { projectId, contactId: contact.id })}`,
      }),
      404,
      'NOT_FOUND',
    );
    expect((await contactOf('late@reader.test'))!.subscribed).toBe(false);
  });

  it('changes nothing for a forged confirmation link (GET or POST) or a Confirm posted from another site', async () => {
    expect(await signup({ email: 'pending@reader.test' })).toEqual(ACCEPTED);
    const contactId = (await contactOf('pending@reader.test'))!.id;
    const before = await confirmationOf(contactId);
    expect(before.status).toBe('PENDING');
    const valid = createConfirmToken(APP_SECRET, { projectId, contactId });
    const forged = [
      `${valid.slice(0, -3)}${valid.endsWith('AAA') ? 'BBB' : 'AAA'}`, // a damaged signature
      createConfirmToken('another-secret-0123456789abcdefghijklmnop', { projectId, contactId }),
      createUnsubscribeToken(APP_SECRET, { projectId, contactId }), // a link of another purpose
    ];
    for (const token of forged) {
      const page = await m.t.app.inject({ method: 'GET', url: `/confirm/${token}`, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('not valid');
      expectError(await m.t.app.inject({ method: 'GET', url: `/confirm/${token}` }), 404, 'NOT_FOUND');
      const posted = await m.t.app.inject({
        method: 'POST',
        url: `/confirm/${token}`,
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(posted.statusCode).toBe(404);
    }
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      expectError(await m.t.app.inject({ method: 'POST', url: `/confirm/${valid}`, headers }), 403, 'FORBIDDEN');
    }
    expect((await contactOf('pending@reader.test'))!.subscribed).toBe(false);
    expect(await confirmationOf(contactId)).toEqual(before);
    expect((await call('GET', `/events?contactId=${contactId}&name=contact.confirmed`)).json().data.items).toEqual([]);
  });
});
