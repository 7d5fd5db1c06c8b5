// The official SDK's API keys against a running Herald: keys made with it work as Herald keys of their scope (a
// sending key sends, and only from its domain: mail at a real SMTP sink), lists walk to the end both ways, a removed
// key stops at once, and Resend's errors come as the SDK surfaces them.
import { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { resendBaseUrl } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

describe('the Resend SDK: API keys', () => {
  let m: MailFixture;
  let base: string;
  let resend: Resend;
  let domainId: string;

  beforeAll(async () => {
    m = await startMailFixture();
    const first = await m.verifiedDomain('keys.test');
    domainId = first.domainId;
    await m.verifiedDomain('other-keys.test', first.project);
    base = await resendBaseUrl(m.t.app);
    resend = new Resend(first.project.secretKey, { baseUrl: base });
  });
  afterAll(() => m.close());

  const client = (token: string) => new Resend(token, { baseUrl: base });

  it('makes a full_access key that does everything, shown once', async () => {
    const made = await resend.apiKeys.create({ name: 'Deploy' });
    expect(made.error).toBeNull();
    expect(made.data).toEqual({ id: expect.any(String), token: expect.stringMatching(/^sk_/) });
    const full = client(made.data!.token);
    expect((await full.domains.list()).error).toBeNull();
    const contact = await full.contacts.create({ email: 'keys-person@example.com' });
    expect(contact.error).toBeNull();

    const native = await m.t.app.inject({
      method: 'GET',
      url: '/api-keys',
      headers: { authorization: `Bearer ${made.data!.token}` },
    });
    const item = native.json().data.items.find((k: { id: string }) => k.id === made.data!.id);
    expect(item).toMatchObject({ name: 'Deploy', scope: 'full', domainIds: null, type: 'secret' });
  });

  it('makes a sending_access key held to one domain: it sends from it only, and reads nothing else', async () => {
    const made = await resend.apiKeys.create({ name: 'Mailer', permission: 'sending_access', domain_id: domainId });
    expect(made.error).toBeNull();
    const sending = client(made.data!.token);

    const sent = await sending.emails.send({
      from: 'hello@keys.test',
      to: 'reader@dest.test',
      subject: 'From a sending key',
      html: '<p>Hi</p>',
    });
    expect(sent.error).toBeNull();
    await until(() => m.sink.messages.find((msg) => msg.to.includes('reader@dest.test')), 'mail at the sink');

    const elsewhere = await sending.emails.send({
      from: 'hello@other-keys.test',
      to: 'reader2@dest.test',
      subject: 'From another domain',
      html: '<p>Hi</p>',
    });
    expect(elsewhere.error).toMatchObject({ statusCode: 403, name: 'validation_error' });
    expect((await sending.domains.list()).error).toMatchObject({ statusCode: 401, name: 'restricted_api_key' });
    expect((await sending.apiKeys.list()).error).toMatchObject({ statusCode: 401, name: 'restricted_api_key' });
  });

  it('lists live keys newest first, walked to the end with after and back with before', async () => {
    for (const name of ['K1', 'K2', 'K3']) expect((await resend.apiKeys.create({ name })).error).toBeNull();
    const all = await resend.apiKeys.list({ limit: 100 });
    expect(all.data).toMatchObject({ object: 'list', has_more: false });
    const ids = all.data!.data.map((k) => k.id);
    expect(all.data!.data.slice(0, 3).map((k) => k.name)).toEqual(['K3', 'K2', 'K1']);
    expect(all.data!.data[0]).toEqual({
      id: expect.any(String),
      name: 'K3',
      created_at: expect.any(String),
      last_used_at: null,
    });

    const forward: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await resend.apiKeys.list(after ? { limit: 2, after } : { limit: 2 });
      forward.push(...page.data!.data.map((k) => k.id));
      if (!page.data!.has_more) break;
      after = forward.at(-1);
    }
    expect(forward).toEqual(ids);
    const back = await resend.apiKeys.list({ limit: 2, before: ids[2]! });
    expect(back.data).toMatchObject({ has_more: false, data: [{ id: ids[0] }, { id: ids[1] }] });
  });

  it('removes a key: it stops working at once and leaves the list', async () => {
    const made = await resend.apiKeys.create({ name: 'Short-lived' });
    const doomed = client(made.data!.token);
    expect((await doomed.domains.list()).error).toBeNull();
    const removed = await resend.apiKeys.remove(made.data!.id);
    expect(removed.data).toEqual({ object: 'api_key', id: made.data!.id, deleted: true });
    expect((await doomed.domains.list()).error).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
    const listed = await resend.apiKeys.list({ limit: 100 });
    expect(listed.data!.data.map((k) => k.id)).not.toContain(made.data!.id);
    // A key cannot remove itself.
    const other = await resend.apiKeys.create({ name: 'Self' });
    const self = await client(other.data!.token).apiKeys.remove(other.data!.id);
    expect(self.error).toMatchObject({ statusCode: 401, name: 'restricted_api_key' });
  });

  it("surfaces Resend's errors: missing and invalid key, validation, not found", async () => {
    const missing = await fetch(`${base}/api-keys`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ name: 'missing_api_key' });
    expect((await client('sk_nope').apiKeys.list()).error).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
    expect((await resend.apiKeys.create({ name: '' })).error).toMatchObject({
      statusCode: 422,
      name: 'validation_error',
    });
    const fullWithDomain = await resend.apiKeys.create({ name: 'X', permission: 'full_access', domain_id: domainId });
    expect(fullWithDomain.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(fullWithDomain.error!.message).toContain('domain_id');
    const unknownDomain = await resend.apiKeys.create({
      name: 'Y',
      permission: 'sending_access',
      domain_id: crypto.randomUUID(),
    });
    expect(unknownDomain.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect((await resend.apiKeys.remove(crypto.randomUUID())).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
  });
});
