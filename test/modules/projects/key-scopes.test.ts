// Keys with scopes, sender domains and expiry, made by a project's own full key (POST /api-keys), held to their
// scope at the real routes of every module, the Resend routes and the SMTP relay.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { plain, smtpDialogue } from '../../support/smtp-client.ts';

type Auth = { authorization: string };
interface CreatedKey {
  id: string;
  key: string;
  scope: string;
  domainIds: string[] | null;
  expiresAt: string | null;
  auth: Auth;
}

describe('key scopes, sender domains and expiry', () => {
  let m: MailFixture;
  let relay: SubmissionRelay;
  let a: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let b: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let emailId: string;
  let segmentId: string;

  const call = (auth: Auth, method: string, url: string, payload?: unknown) =>
    m.t.app.inject({
      method: method as 'GET',
      url,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  async function createKey(payload: Record<string, unknown>): Promise<CreatedKey> {
    const res = await call(a.auth, 'POST', '/api-keys', payload);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as Omit<CreatedKey, 'auth'>;
    return { ...data, auth: { authorization: `Bearer ${data.key}` } };
  }
  const mail = (from: string, n = 1) => ({ to: `reader${n}@dest.test`, from, subject: 'Hi', body: '<p>Hi</p>' });
  const resendMail = (from: string) => ({ to: 'reader@dest.test', from, subject: 'Hi', html: '<p>Hi</p>' });
  /** An email of domain a, scheduled for tomorrow (sent with the project's full key). */
  async function scheduledEmail(): Promise<string> {
    const res = await call(a.auth, 'POST', '/v1/send', {
      ...mail('app@a.example.test'),
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.emails[0].email as string;
  }
  const statusOf = async (id: string) => (await call(a.auth, 'GET', `/emails/${id}`)).json().data.status as string;
  const emailCount = async () => (await call(a.auth, 'GET', '/emails')).json().data.total as number;
  const listKeys = async () => (await call(a.auth, 'GET', '/api-keys')).json().data.items as Record<string, unknown>[];

  beforeAll(async () => {
    m = await startMailFixture();
    a = await m.verifiedDomain('a.example.test');
    b = await m.verifiedDomain('b.example.test', a.project);
    relay = await startSubmissionRelay(m.t.ctx, 0);
    emailId = (await call(a.auth, 'POST', '/v1/send', mail('app@a.example.test'))).json().data.emails[0].email;
    const list = await call(a.auth, 'POST', '/segments', { name: 'Beta testers', type: 'STATIC' });
    expect(list.statusCode, list.body).toBe(201);
    segmentId = list.json().data.id;
  });
  afterAll(async () => {
    await relay.close();
    await m.close();
  });

  it(
    'creates a named key with a scope, sender domains and an expiry, shows it once, ' +
      'and lists it with its last use',
    async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const created = await createKey({ name: 'CI deploys', scope: 'sending', domainIds: [a.domainId], expiresAt });
      expect(created).toMatchObject({
        name: 'CI deploys',
        type: 'secret',
        scope: 'sending',
        domainIds: [a.domainId],
        expiresAt,
      });
      expect(created.key).toMatch(/^sk_/);
      let listed = (await listKeys()).find((k) => k.id === created.id)!;
      expect(listed).toMatchObject({
        name: 'CI deploys',
        scope: 'sending',
        lastUsedAt: null,
        prefix: created.key.slice(0, 10),
      });
      expect(listed).not.toHaveProperty('key');
      expect((await call(created.auth, 'GET', `/emails/${emailId}`)).statusCode).toBe(200);
      listed = (await listKeys()).find((k) => k.id === created.id)!;
      expect(listed.lastUsedAt).not.toBeNull();
      // The project's first keys are full keys, restricted to nothing.
      expect((await listKeys()).filter((k) => k.name === 'Secret key')).toEqual([
        expect.objectContaining({ scope: 'full', domainIds: null, expiresAt: null }),
      ]);
    },
  );

  it.each([
    ['an unknown scope', { scope: 'admin' }],
    ['an expiry in the past', { expiresAt: '2001-01-01T00:00:00Z' }],
    ['an expiry that is no date', { expiresAt: 'tomorrow' }],
    ['a domain of no project', { domainIds: ['0b7f6a9e-8e4f-4c52-9c1a-2f0e5d3c1a77'] }],
    ['a domain id that is no id', { domainIds: ['a.example.test'] }],
    ['a public key with a scope', { type: 'public', scope: 'read' }],
  ])('refuses %s with 422', async (_label, payload) => {
    const res = await call(a.auth, 'POST', '/api-keys', payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it(
    'lets a read key call the GET routes of every module and refuses it everything ' + 'else with 403 naming its scope',
    async () => {
      const reader = await createKey({ scope: 'read' });
      const reads = [
        '/contacts',
        '/events',
        '/templates',
        '/campaigns',
        '/segments',
        `/segments/${segmentId}/contacts`,
        '/workflows',
        '/domains',
        '/webhooks',
        '/suppressions',
        '/emails',
        `/emails/${emailId}`,
        '/inbound',
        '/topics',
        '/settings',
        '/contacts/export',
        '/api-keys/current',
      ];
      for (const url of reads) expect((await call(reader.auth, 'GET', url)).statusCode, url).toBe(200);
      for (const url of ['/resend/domains', '/resend/emails', `/resend/emails/${emailId}`])
        expect((await call(reader.auth, 'GET', url)).statusCode, url).toBe(200);
      const writes: [string, string][] = [
        ['POST', '/contacts'],
        ['POST', '/templates'],
        ['POST', '/campaigns'],
        ['POST', '/segments'],
        ['POST', '/webhooks'],
        ['POST', '/domains'],
        ['POST', '/suppressions'],
        ['POST', '/workflows'],
        ['POST', '/v1/send'],
        ['POST', '/v1/track'],
        ['POST', '/v1/verify'],
        ['POST', '/v1/subscribe'],
        [`DELETE`, `/contacts/${emailId}`],
        ['GET', '/api-keys'],
        ['POST', '/api-keys'],
        ['POST', '/topics'],
        ['PATCH', '/settings'],
        ['DELETE', `/inbound/${emailId}`],
        ['POST', `/segments/${segmentId}/members`],
        ['DELETE', `/segments/${segmentId}/members`],
      ];
      for (const [method, url] of writes) {
        const res = await call(reader.auth, method, url, {});
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('read scope') });
      }
      // Resend answers a restricted key as Resend does.
      expect(
        (await call(reader.auth, 'POST', '/resend/emails', resendMail('app@a.example.test'))).json(),
      ).toMatchObject({
        statusCode: 401,
        name: 'restricted_api_key',
      });
    },
  );

  it('lets a sending key send, track, verify and read an email, and nothing else', async () => {
    const sender = await createKey({ scope: 'sending' });
    expect((await call(sender.auth, 'POST', '/v1/send', mail('app@a.example.test'))).statusCode).toBe(200);
    expect((await call(sender.auth, 'POST', '/v1/send/batch', [mail('app@b.example.test', 2)])).statusCode).toBe(200);
    expect(
      (await call(sender.auth, 'POST', '/v1/track', { email: 'visitor@dest.test', event: 'signed_up' })).statusCode,
    ).toBe(200);
    expect((await call(sender.auth, 'POST', '/v1/verify', { email: 'ann@example.com' })).statusCode).toBe(200);
    expect((await call(sender.auth, 'POST', '/v1/subscribe', { email: 'newcomer@dest.test' })).statusCode).toBe(200);
    expect((await call(sender.auth, 'GET', `/emails/${emailId}`)).statusCode).toBe(200);
    const refused = [
      ['GET', '/contacts'],
      ['GET', '/emails'],
      ['POST', '/contacts'],
      ['GET', '/templates'],
      ['POST', '/campaigns'],
      ['GET', '/api-keys'],
      ['GET', '/topics'],
      ['POST', '/topics'],
      ['GET', '/contacts/export'],
      ['GET', '/settings'],
      ['PATCH', '/settings'],
      ['GET', '/inbound'],
      ['DELETE', `/inbound/${emailId}`],
      ['GET', `/segments/${segmentId}/contacts`],
      ['POST', `/segments/${segmentId}/members`],
      ['PATCH', `/emails/${emailId}`],
      ['POST', `/emails/${emailId}/cancel`],
    ];
    for (const [method, url] of refused) {
      const res = await call(sender.auth, method!, url!, {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.message).toContain('sending scope');
    }
  });

  it('lets a sending key send and get an email through the Resend routes, and nothing else there', async () => {
    const sender = await createKey({ scope: 'sending' });
    const one = await call(sender.auth, 'POST', '/resend/emails', resendMail('app@a.example.test'));
    expect(one.statusCode, one.body).toBe(200);
    const batch = await call(sender.auth, 'POST', '/resend/emails/batch', [
      resendMail('app@a.example.test'),
      resendMail('app@b.example.test'),
    ]);
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json().data).toEqual([{ id: expect.any(String) }, { id: expect.any(String) }]);
    expect((await call(sender.auth, 'GET', `/resend/emails/${one.json().id}`)).json()).toMatchObject({
      object: 'email',
      id: one.json().id,
    });
    // Listing, rescheduling and cancelling are refused as the native routes refuse them, and the email stays scheduled.
    const later = await scheduledEmail();
    const restricted = [
      ['GET', '/resend/emails', undefined],
      ['GET', '/resend/domains', undefined],
      ['PATCH', `/resend/emails/${later}`, { scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString() }],
      ['POST', `/resend/emails/${later}/cancel`, undefined],
    ] as const;
    for (const [method, url, body] of restricted) {
      expect((await call(sender.auth, method, url, body)).json(), `${method} ${url}`).toMatchObject({
        statusCode: 401,
        name: 'restricted_api_key',
      });
    }
    expect(await statusOf(later)).toBe('SCHEDULED');
    // A full key may: the email could be cancelled.
    expect((await call(a.auth, 'POST', `/resend/emails/${later}/cancel`)).statusCode).toBe(200);
    expect(await statusOf(later)).toBe('CANCELLED');
  });

  it("refuses a sender outside the key's domains with 403 on every sending route", async () => {
    const restricted = await createKey({ scope: 'sending', domainIds: [a.domainId] });
    expect((await call(restricted.auth, 'POST', '/v1/send', mail('app@a.example.test'))).statusCode).toBe(200);
    const off = await call(restricted.auth, 'POST', '/v1/send', mail('app@b.example.test'));
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('b.example.test') });
    expect(off.json().error.errors).toEqual([
      expect.objectContaining({ field: 'from', code: 'sender_domain_not_allowed' }),
    ]);
    const before = await emailCount();
    const batch = await call(restricted.auth, 'POST', '/v1/send/batch', [
      mail('app@a.example.test'),
      mail('app@b.example.test'),
    ]);
    expect(batch.statusCode).toBe(403);
    expect(batch.json().error.errors[0]).toMatchObject({ field: '1.from', code: 'sender_domain_not_allowed' });
    // The Resend routes answer in Resend's shape: 403 validation_error, as Resend does for a domain it may not send
    // from.
    const resendOff = await call(restricted.auth, 'POST', '/resend/emails', resendMail('app@b.example.test'));
    expect(resendOff.statusCode).toBe(403);
    expect(resendOff.json()).toEqual({
      statusCode: 403,
      name: 'validation_error',
      message: expect.stringContaining('b.example.test'),
    });
    const resendBatch = await call(restricted.auth, 'POST', '/resend/emails/batch', [
      resendMail('app@a.example.test'),
      resendMail('app@b.example.test'),
    ]);
    expect(resendBatch.statusCode).toBe(403);
    expect(resendBatch.json()).toEqual({
      statusCode: 403,
      name: 'validation_error',
      message: expect.stringMatching(/^Item 1: .*b\.example\.test/),
    });
    expect(await emailCount()).toBe(before);
    const toB = await createKey({ scope: 'sending', domainIds: [b.domainId] });
    expect((await call(toB.auth, 'POST', '/v1/send', mail('app@a.example.test'))).statusCode).toBe(403);
    expect((await call(toB.auth, 'POST', '/v1/send', mail('app@b.example.test'))).statusCode).toBe(200);
    // A full or read key could reach other domains through campaigns or workflows: it cannot be restricted.
    for (const scope of [undefined, 'full', 'read']) {
      const res = await call(a.auth, 'POST', '/api-keys', { scope, domainIds: [b.domainId] });
      expect(res.statusCode, String(scope)).toBe(422);
      expect(res.json().error.errors[0]).toMatchObject({ field: 'domainIds', code: 'needs_sending_scope' });
    }
  });

  it('refuses a key revoking itself, and revokes another at once', async () => {
    const admin = await createKey({ name: 'Ops' });
    const other = await createKey({ name: 'Old CI' });
    const self = await call(admin.auth, 'DELETE', `/api-keys/${admin.id}`);
    expect(self.statusCode).toBe(403);
    expect(self.json().error.message).toMatch(/cannot revoke itself/);
    expect((await call(other.auth, 'GET', '/contacts')).statusCode).toBe(200);
    expect((await call(admin.auth, 'DELETE', `/api-keys/${other.id}`)).statusCode).toBe(200);
    expect((await call(other.auth, 'GET', '/contacts')).statusCode).toBe(401);
    expect((await call(admin.auth, 'DELETE', `/api-keys/${other.id}`)).statusCode).toBe(404);
    // Another project's key is not this project's to revoke.
    const stranger = await m.t.createProject('Stranger');
    expect((await call(stranger.auth, 'DELETE', `/api-keys/${admin.id}`)).statusCode).toBe(404);
    expect((await listKeys()).find((k) => k.id === other.id)!.revokedAt).not.toBeNull();
  });

  /** The clock cannot be moved, so the expiry is: it passes, and the cache is dropped as a new process would. */
  async function expire(key: CreatedKey): Promise<void> {
    await m.t.ctx.db.execute(
      sql`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${key.id}::uuid`,
    );
    await m.t.app.inject({ method: 'PATCH', url: `/admin/projects/${a.project.id}`, headers: m.t.admin, payload: {} });
  }
  const lastUsedAt = async (key: CreatedKey) => (await listKeys()).find((k) => k.id === key.id)!.lastUsedAt;

  it('answers 401 for an expired key, and does not count the refused request as a use', async () => {
    const soon = await createKey({ name: 'Temp', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await call(soon.auth, 'GET', '/contacts')).statusCode).toBe(200);
    await expire(soon);
    const res = await call(soon.auth, 'GET', '/contacts');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('expired') });
    const unused = await createKey({ name: 'Never used', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await expire(unused);
    expect((await call(unused.auth, 'GET', '/contacts')).statusCode).toBe(401);
    expect(await lastUsedAt(unused)).toBeNull();
  });

  it('refuses an expired key at the SMTP relay', async () => {
    const key = await createKey({ scope: 'sending', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await expire(key);
    const s = await smtpDialogue(relay.port);
    await s.send('EHLO app.test');
    expect(await s.send(`AUTH PLAIN ${plain(key.key)}`)).toMatch(/^535 5\.7\.8 .*expired/);
    await s.close();
    expect(await lastUsedAt(key)).toBeNull();
  });

  it("holds the SMTP relay to the key: no read keys, and only the key's sender domains", async () => {
    const reader = await createKey({ scope: 'read' });
    const restricted = await createKey({ scope: 'sending', domainIds: [a.domainId] });
    const s = await smtpDialogue(relay.port);
    await s.send('EHLO app.test');
    expect(await s.send(`AUTH PLAIN ${plain(reader.key)}`)).toMatch(/^535 5\.7\.8 .*read scope/);
    expect(await s.send(`AUTH PLAIN ${plain(restricted.key)}`)).toMatch(/^235/);
    const submit = async (from: string) => {
      expect(await s.send(`MAIL FROM:<${from}>`)).toMatch(/^250/);
      expect(await s.send('RCPT TO:<rcpt@dest.test>')).toMatch(/^250/);
      expect(await s.send('DATA')).toMatch(/^354/);
      return s.write(`From: ${from}\r\nTo: rcpt@dest.test\r\nSubject: Hi\r\n\r\nHello\r\n.\r\n`);
    };
    expect(await submit('app@b.example.test')).toMatch(/^550 5\.7\.1 .*b\.example\.test/);
    expect(await submit('app@a.example.test')).toMatch(/^250/);
    await s.close();
  });
});
