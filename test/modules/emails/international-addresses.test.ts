/**
 * One address validator for every endpoint. Internationalised domains are stored in
 * punycode and shown in both forms; internationalised local parts (SMTPUTF8) are accepted and delivered
 * with SMTPUTF8 by the SMTP transport.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('international addresses on every endpoint', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('bücher.example');
  });
  afterAll(() => m.close());

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    m.t.app.inject({
      method,
      url,
      headers: sender.auth,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  it('accepts IDN domains on contacts and track, stores punycode and shows both forms', async () => {
    const created = await inject('POST', '/contacts', { email: 'User@München.de' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ email: 'user@xn--mnchen-3ya.de', emailUnicode: 'user@münchen.de' });
    // The same address written in punycode is the same contact.
    const again = await inject('POST', '/v1/track', { email: 'user@xn--mnchen-3ya.de', event: 'visited' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.contact).toBe(created.json().data.id);
    const tracked = await inject('POST', '/v1/track', { email: 'user@example.xn--p1ai', event: 'visited' });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const found = await inject('GET', `/contacts?email=${encodeURIComponent('user@münchen.de')}`);
    expect(found.json().data.items.map((c: { id: string }) => c.id)).toEqual([created.json().data.id]);
    const events = await inject('GET', `/events?email=${encodeURIComponent('USER@münchen.de')}`);
    expect(events.json().data.total).toBe(1);
  });

  it('accepts an internationalised local part everywhere an address is taken', async () => {
    const contact = await inject('POST', '/contacts', { email: 'Jöhn@example.org' });
    expect(contact.statusCode, contact.body).toBe(201);
    expect(contact.json().data.email).toBe('jöhn@example.org');
    expect((await inject('POST', '/suppressions', { email: 'δοκιμή@example.org' })).statusCode).toBe(201);
    expect((await inject('DELETE', `/suppressions/${encodeURIComponent('ΔΟΚΙΜΉ@example.org')}`)).statusCode).toBe(200);
    const template = await inject('POST', '/templates', {
      name: 'T',
      subject: 's',
      body: 'b',
      type: 'TRANSACTIONAL',
      from: 'news@bücher.example',
      replyTo: 'antwort@bücher.example',
    });
    expect(template.statusCode, template.body).toBe(201);
    expect(template.json().data).toMatchObject({
      from: 'news@xn--bcher-kva.example',
      replyTo: 'antwort@xn--bcher-kva.example',
    });
    const verify = await inject('POST', '/v1/verify', { email: 'jöhn@münchen.de' });
    expect(verify.json().data.reasons.join(' ')).not.toMatch(/syntax|not allowed/i);
  });

  it('refuses what no provider accepts with the same 422 everywhere', async () => {
    for (const [url, payload, field] of [
      ['/contacts', { email: 'jo hn@example.org' }, 'email'],
      ['/v1/track', { email: 'john@exa_mple.org', event: 'e' }, 'email'],
      ['/suppressions', { email: 'a@b@example.org' }, 'email'],
      [
        '/templates',
        { name: 'T', subject: 's', body: 'b', type: 'TRANSACTIONAL', from: 'zero\u200bwidth@bücher.example' },
        'from',
      ],
      ['/v1/send', { to: 'john@[127.0.0.1]', from: 'news@bücher.example', subject: 's', body: 'b' }, 'to'],
    ] as const) {
      const res = await inject('POST', url, payload);
      const body = expectValidation(res, field);
      // /v1/send's `to` is "an address, or {name, email}, or a list": zod names the union, not the address.
      if (url !== '/v1/send') expect(body.error.message).toMatch(/Invalid email address: /);
    }
  });

  it('sends to IDN domains in punycode and to internationalised local parts with SMTPUTF8', async () => {
    const res = await inject('POST', '/v1/send', {
      to: ['jöhn@example.org', 'user@münchen.de'],
      from: { name: 'Bücher', email: 'news@bücher.example' },
      subject: 'Hallo',
      body: '<p>Hi</p>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data.emails as { email: string }[]).map((e) => e.email);
    for (const id of ids) await m.waitForStatus(sender.auth, id, ['SENT']);
    const utf8 = m.sink.messages.find((msg) => msg.to.includes('jöhn@example.org'));
    expect(utf8?.smtpUtf8).toBe(true);
    // smtp-server reports domains in Unicode; an envelope without SMTPUTF8 was all ASCII (punycode) on the wire.
    const idn = m.sink.messages.find((msg) => msg.to.includes('user@münchen.de'));
    expect(idn).toMatchObject({ smtpUtf8: false, from: 'news@bücher.example' });
    expect((await simpleParser(utf8!.raw)).to).toMatchObject({ value: [{ address: 'jöhn@example.org' }] });
  });
});
