import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlunk } from '../../support/plunk.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('POST /v1/send refuses bad input with a 4xx', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    sender = await m.verifiedDomain('example.test');
  });
  afterAll(() => m.close());

  const ok = { to: 'a@dest.test', from: 'hello@example.test', subject: 'Hi', body: '<p>Hi</p>' };
  const send = (payload: Record<string, unknown>, auth = sender.auth) =>
    m.t.app.inject({ method: 'POST', url: '/v1/send', headers: auth, payload });
  const expect422 = async (payload: Record<string, unknown>, field?: string) => {
    const res = await send(payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    if (field) expect(res.json().error.errors.map((e: { field: string }) => e.field)).toContain(field);
  };

  it.each([
    ['CRLF in a header value', { headers: { 'X-Note': 'a\r\nBcc: victim@evil.test' } }, 'headers.X-Note'],
    ['LF in a header name', { headers: { 'X-A\nBcc': 'x' } }, 'headers.X-A\nBcc'],
    ['NUL in a header value', { headers: { 'X-Note': 'a\u0000b' } }, 'headers.X-Note'],
    ['a reserved header (From)', { headers: { From: 'ceo@example.test' } }, 'headers.From'],
    [
      'a reserved header (List-Unsubscribe)',
      { headers: { 'List-Unsubscribe': '<https://evil.test>' } },
      'headers.List-Unsubscribe',
    ],
    ['a reserved header (Bcc)', { headers: { bcc: 'victim@evil.test' } }, 'headers.bcc'],
    ['CRLF in the subject', { subject: 'Hi\r\nBcc: victim@evil.test' }, 'subject'],
    ['LF in a display name', { to: { name: 'Ann\nBcc: x@evil.test', email: 'a@dest.test' } }, 'to.name'],
    ['LF in the sender name', { name: 'Acme\r\nX-Evil: 1' }, 'name'],
    ['CR in a filename', { attachments: [{ filename: 'a\r.txt', content: 'aGk=' }] }, 'attachments.0.filename'],
    [
      'content that is not base64',
      { attachments: [{ filename: 'a.txt', content: 'not base64!' }] },
      'attachments.0.content',
    ],
    [
      'more than 10 attachments',
      { attachments: Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.txt`, content: 'aGk=' })) },
      'attachments',
    ],
    ['more than 50 recipients', { to: Array.from({ length: 51 }, (_, i) => `r${i}@dest.test`) }, 'to'],
    ['an invalid recipient', { to: 'not-an-address' }, 'to'],
    ['no subject and no template', { subject: undefined }, 'subject'],
    ['no body and no template', { body: undefined }, 'body'],
    ['no sender anywhere', { from: undefined }, 'from'],
    ['a body that does not parse', { body: '{% for x in y %}' }, 'body'],
    ['a bad type', { subscribed: 'yes' }, 'subscribed'],
    [
      'more than 50 custom headers',
      { headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])) },
      'headers',
    ],
    ['data over 64 KB', { data: { note: 'x'.repeat(70_000) } }, 'data'],
    [
      'data nested past 16 levels',
      { data: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) },
      'data.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a',
    ],
    ['a body with more than 10,000 Liquid tags', { body: '{{ a }}'.repeat(10_001) }, 'body'],
  ])('422 for %s', async (_label, patch, field) => {
    await expect422({ ...ok, ...patch }, field);
  });

  it('422 for attachments over 10 MB in total', async () => {
    const sixMb = Buffer.alloc(6 * 1024 * 1024, 1).toString('base64');
    await expect422(
      {
        ...ok,
        attachments: [
          { filename: 'a.bin', content: sixMb },
          { filename: 'b.bin', content: sixMb },
        ],
      },
      'attachments',
    );
  });

  it('403 DOMAIN_NOT_VERIFIED for a sender outside the verified domains', async () => {
    const res = await send({ ...ok, from: 'ceo@gmail.com' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('DOMAIN_NOT_VERIFIED');
  });

  it('404 for another project’s template, 403 for a public key, 401 without a key', async () => {
    const other = await m.verifiedDomain('other.test');
    const tpl = await m.t.app.inject({
      method: 'POST',
      url: '/templates',
      headers: other.auth,
      payload: { name: 't', subject: 's', body: 'b', type: 'TRANSACTIONAL' },
    });
    const res = await send({ to: 'a@dest.test', from: 'hello@example.test', template: tpl.json().data.id });
    expect(res.statusCode).toBe(404);
    expect((await send(ok, { authorization: `Bearer ${sender.project.publicKey}` })).statusCode).toBe(403);
    expect((await m.t.app.inject({ method: 'POST', url: '/v1/send', payload: ok })).statusCode).toBe(401);
  });

  it('creates nothing when a request is refused', async () => {
    await send({ ...ok, to: ['x1@dest.test', 'x2@dest.test'], body: '{{ "a" | nosuchfilter }}' });
    const contacts = (
      await m.t.app.inject({ method: 'GET', url: '/contacts?search=x1@dest', headers: sender.auth })
    ).json().data;
    expect(contacts.total).toBe(0);
  });

  it('sanitises an attachment filename to a safe base name and keeps the bytes', async () => {
    const res = await send({
      ...ok,
      attachments: [
        { filename: '../../etc/passwd', content: Buffer.from('hello').toString('base64'), contentType: 'text/plain' },
      ],
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('outbox transport and the Plunk SDK', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    // The default transport: every message is built, signed and written to DATA_DIR/outbox.
    m = await startMailFixture({ env: { MAIL_TRANSPORT: 'outbox', SMTP_URL: '' } });
    sender = await m.verifiedDomain('example.test');
    await m.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => m.close());

  it('sends through the official Plunk Node SDK and writes the signed .eml to the outbox', async () => {
    const address = m.t.app.server.address() as { port: number };
    const plunk = createPlunk(sender.project.secretKey, `http://127.0.0.1:${address.port}/v1/`);
    const result = (await plunk.emails.send({
      to: 'sdk@dest.test',
      subject: 'From the SDK',
      body: '<p>Hello</p>',
      from: 'hello@example.test',
      name: 'Acme',
    })) as unknown as { success: boolean; data: { emails: { email: string }[] } };
    expect(result.success).toBe(true);
    const emailId = result.data.emails[0]!.email;
    await m.waitForStatus(sender.auth, emailId, ['SENT']);
    const fs = await import('node:fs');
    const path = await import('node:path');
    const raw = fs.readFileSync(path.join(m.t.ctx.config.dataDir, 'outbox', `${emailId}.eml`));
    expect(raw.toString()).toContain('DKIM-Signature:');
    expect(raw.toString()).toContain('Subject: From the SDK');
    expect(m.sink.messages).toHaveLength(0);
  });

  it("an outbox email's status reason names the message file in DATA_DIR, not the server's path", async () => {
    const base = `http://127.0.0.1:${(m.t.app.server.address() as { port: number }).port}`;
    const headers = { ...sender.auth, 'content-type': 'application/json' };
    const sent = await fetch(`${base}/v1/send`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ to: 'path@dest.test', from: 'hello@example.test', subject: 'Hi', body: '<p>Hi</p>' }),
    });
    expect(sent.status).toBe(200);
    const emailId = ((await sent.json()) as { data: { emails: { email: string }[] } }).data.emails[0]!.email;
    await m.waitForStatus(sender.auth, emailId, ['SENT']);
    const email = (
      (await (await fetch(`${base}/emails/${emailId}`, { headers: sender.auth })).json()) as {
        data: { statusReason: string };
      }
    ).data;
    expect(email.statusReason).toBe(`outbox/${emailId}.eml`);
    expect(email.statusReason).not.toContain(m.t.ctx.config.dataDir);
  });
});
