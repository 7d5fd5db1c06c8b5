import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlunk } from '../../support/plunk.ts';
import { until } from '../../support/until.ts';
import { listeningResend } from '../../support/resend.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Sender = Awaited<ReturnType<MailFixture['verifiedDomain']>>;

describe("the project's default sender", () => {
  let m: MailFixture;

  beforeAll(async () => {
    m = await startMailFixture();
    await m.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => m.close());

  const call = (
    auth: { authorization: string },
    method: 'GET' | 'PATCH' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const setDefault = (s: Sender, defaultFrom: string | null) => call(s.auth, 'PATCH', '/settings', { defaultFrom });
  /** The From header of the message the sink got for `to`, once it arrived. */
  const fromHeaderOf = async (to: string) => {
    const message = await until(() => m.sink.messages.find((msg) => msg.to.includes(to)), `a message to ${to}`);
    return (await simpleParser(message.raw)).from!.value[0]!;
  };

  it('is saved only on a verified sender domain of the project, with a 422 naming the field otherwise', async () => {
    const s = await m.verifiedDomain('acme.test');
    expect((await call(s.auth, 'GET', '/settings')).json().data.defaultFrom).toBeNull();

    const saved = await setDefault(s, '  Acme News <Hello@Acme.test> ');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.defaultFrom).toBe('Acme News <hello@acme.test>');
    expect((await call(s.auth, 'GET', '/settings')).json().data.defaultFrom).toBe('Acme News <hello@acme.test>');
    // A subdomain of a verified domain may send, as for any `from`; a quoted name and a bare address are taken.
    // A name with a comma stays quoted, so what GET answers reads back the same.
    const quoted = (await setDefault(s, '"Acme, Inc." <news@mail.acme.test>')).json().data.defaultFrom as string;
    expect(quoted).toBe('"Acme, Inc." <news@mail.acme.test>');
    expect((await setDefault(s, quoted)).json().data.defaultFrom).toBe(quoted);
    expect((await setDefault(s, 'hello@acme.test')).json().data.defaultFrom).toBe('hello@acme.test');

    const refused: [string, string][] = [
      ['Acme <hello@elsewhere.test>', 'domain_not_verified'],
      // The local sender is refused while mail leaves the machine (this instance sends over SMTP).
      ['hello@herald.localhost', 'domain_not_verified'],
      ['Acme <not an address>', 'invalid_sender'],
      ['Acme\r\nBcc: x@evil.test <hello@acme.test>', 'invalid_sender'],
      ['', 'invalid_sender'],
    ];
    for (const [value, code] of refused) {
      const res = await setDefault(s, value);
      expect(res.statusCode, `${value}: ${res.body}`).toBe(422);
      expect(res.json().error.errors).toEqual([expect.objectContaining({ field: 'defaultFrom', code })]);
    }
    expect((await call(s.auth, 'PATCH', '/settings', { defaultFrom: 42 })).statusCode).toBe(422);
    // Nothing refused was kept; null removes the default.
    expect((await call(s.auth, 'GET', '/settings')).json().data.defaultFrom).toBe('hello@acme.test');
    expect((await setDefault(s, null)).json().data.defaultFrom).toBeNull();
  });

  it('sends what names no sender from the default; without one, the 422 tells how to set it', async () => {
    const s = await m.verifiedDomain('plunk.test');
    const plunk = createPlunk(
      s.project.secretKey,
      `http://127.0.0.1:${(m.t.app.server.address() as { port: number }).port}/v1/`,
    );
    const noSender = await call(s.auth, 'POST', '/v1/send', { to: 'a@dest.test', subject: 'Hi', body: '<p>Hi</p>' });
    expect(noSender.statusCode).toBe(422);
    expect(noSender.json().error.errors).toEqual([expect.objectContaining({ field: 'from', code: 'required' })]);
    expect(noSender.json().message).toContain('PATCH /settings {"defaultFrom"');
    // The Plunk SDK sends without `from`: refused the same way, the message readable by the SDK's caller.
    await expect(plunk.emails.send({ to: 'sdk@dest.test', subject: 'Hi', body: '<p>Hi</p>' })).rejects.toThrow(
      /defaultFrom/,
    );

    expect((await setDefault(s, 'Plunk Co <hello@plunk.test>')).statusCode).toBe(200);
    const sent = (await plunk.emails.send({ to: 'sdk@dest.test', subject: 'Hi', body: '<p>Hi</p>' })) as unknown as {
      success: boolean;
    };
    expect(sent.success).toBe(true);
    expect(await fromHeaderOf('sdk@dest.test')).toEqual({ name: 'Plunk Co', address: 'hello@plunk.test' });

    // A request's `name` names the default sender; its own `from` wins over the default.
    const hi = { subject: 'Hi', body: '<p>Hi</p>' };
    await call(s.auth, 'POST', '/v1/send', { ...hi, to: 'named@dest.test', name: 'Support' });
    expect(await fromHeaderOf('named@dest.test')).toEqual({ name: 'Support', address: 'hello@plunk.test' });
    await call(s.auth, 'POST', '/v1/send', { ...hi, to: 'own@dest.test', from: 'billing@plunk.test' });
    expect(await fromHeaderOf('own@dest.test')).toEqual({ name: '', address: 'billing@plunk.test' });
  });

  it("uses a template's sender before the default, and the default in a batch's items that name none", async () => {
    const s = await m.verifiedDomain('batch.test');
    const batch = [
      { to: 'b1@dest.test', subject: 'One', body: '<p>1</p>' },
      { to: 'b2@dest.test', from: { name: 'Own', email: 'own@batch.test' }, subject: 'Two', body: '<p>2</p>' },
    ];
    const refused = await call(s.auth, 'POST', '/v1/send/batch', batch);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.errors[0]).toMatchObject({ field: '0.from', code: 'required' });

    await setDefault(s, 'Batch <news@batch.test>');
    expect((await call(s.auth, 'POST', '/v1/send/batch', batch)).statusCode).toBe(200);
    expect(await fromHeaderOf('b1@dest.test')).toEqual({ name: 'Batch', address: 'news@batch.test' });
    expect(await fromHeaderOf('b2@dest.test')).toEqual({ name: 'Own', address: 'own@batch.test' });

    const template = await call(s.auth, 'POST', '/templates', {
      name: 'Receipt',
      subject: 'Receipt',
      body: '<p>Thanks</p>',
      type: 'TRANSACTIONAL',
      from: 'receipts@batch.test',
      fromName: 'Receipts',
    });
    expect(template.statusCode, template.body).toBe(201);
    await call(s.auth, 'POST', '/v1/send', { to: 't@dest.test', template: template.json().data.id });
    expect(await fromHeaderOf('t@dest.test')).toEqual({ name: 'Receipts', address: 'receipts@batch.test' });
  });

  it("takes a Resend email without `from` only when there is a default (Resend's 422 otherwise)", async () => {
    const s = await m.verifiedDomain('resend-default.test');
    const resend = await listeningResend(m.t.app, s.project.secretKey);
    const email = { to: 'r@dest.test', subject: 'Hi', html: '<p>Hi</p>' } as Parameters<typeof resend.emails.send>[0];
    const refused = await resend.emails.send({ ...email, from: undefined as unknown as string });
    expect(refused.error).toMatchObject({ name: 'validation_error', statusCode: 422 });
    expect(refused.error!.message).toContain('defaultFrom');

    await setDefault(s, 'Resent <hello@resend-default.test>');
    const sent = await resend.emails.send({ ...email, from: undefined as unknown as string });
    expect(sent.error).toBeNull();
    expect(await fromHeaderOf('r@dest.test')).toEqual({ name: 'Resent', address: 'hello@resend-default.test' });
    const read = await resend.emails.get(sent.data!.id);
    expect(read.data?.from).toBe('Resent <hello@resend-default.test>');
  });

  it('gives a campaign without a sender the default (a 422 without one), kept when the default changes', async () => {
    const s = await m.verifiedDomain('campaign-default.test');
    const campaign = { name: 'News', subject: 'News', body: '<p>News</p>', audienceType: 'ALL' };
    const refused = await call(s.auth, 'POST', '/campaigns', campaign);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.errors).toEqual([expect.objectContaining({ field: 'from', code: 'required' })]);

    await setDefault(s, 'Campaigns <news@campaign-default.test>');
    const made = await call(s.auth, 'POST', '/campaigns', campaign);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({ from: 'news@campaign-default.test', fromName: 'Campaigns' });
    const ownName = await call(s.auth, 'POST', '/campaigns', { ...campaign, fromName: null });
    expect(ownName.json().data).toMatchObject({ from: 'news@campaign-default.test', fromName: null });

    await setDefault(s, 'other@campaign-default.test');
    const kept = await call(s.auth, 'GET', `/campaigns/${made.json().data.id}`);
    expect(kept.json().data).toMatchObject({ from: 'news@campaign-default.test', fromName: 'Campaigns' });
  });

  it('refuses sends from a default whose domain was deleted, as any sender off the verified domains', async () => {
    const s = await m.verifiedDomain('gone.test');
    await setDefault(s, 'hello@gone.test');
    expect((await call(s.auth, 'DELETE', `/domains/${s.domainId}`)).statusCode).toBe(200);
    const res = await call(s.auth, 'POST', '/v1/send', { to: 'g@dest.test', subject: 'Hi', body: '<p>Hi</p>' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('DOMAIN_NOT_VERIFIED');
  });
});
