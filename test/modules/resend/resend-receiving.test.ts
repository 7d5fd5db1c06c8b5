// The official SDK's received emails and attachments against a running Herald: mail delivered over SMTP to the real
// inbound listener, read back in Resend's shapes, lists walked to the end both ways, attachments (received and sent)
// downloaded through their signed links, and those links refused once forged, expired or past retention.
import net from 'node:net';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDownloadToken } from '../../../src/mail/links.ts';
import { expireInbound, startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { APP_SECRET } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { resendBaseUrl } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the Resend SDK: received emails and attachments', () => {
  let m: MailFixture;
  let listener: SmtpListener;
  let resend: Resend;
  let base: string;
  let projectId: string;
  const received: string[] = [];

  /** The bytes behind a download_url: the link is on the app's public URL, where it listens. */
  const download = (url: string) => {
    expect(url.startsWith(`${base}/downloads/`)).toBe(true);
    return fetch(url);
  };

  beforeAll(async () => {
    const port = await freePort();
    m = await startMailFixture({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await m.t.app.listen({ port, host: '127.0.0.1' });
    const domain = await m.receivingDomain('desk.test');
    projectId = domain.project.id;
    base = await resendBaseUrl(m.t.app);
    resend = new Resend(domain.project.secretKey, { baseUrl: base });
    listener = await startInboundReceiver(m.t.ctx, 0);
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
    for (let i = 0; i < 5; i++) {
      await smtp.sendMail({
        from: 'Ann Sender <ann@outside.test>',
        to: 'Desk <hello@desk.test>',
        cc: 'other@outside.test',
        replyTo: 'replies@outside.test',
        subject: `Question ${i}`,
        text: `Body ${i}`,
        html: `<p>Body ${i}</p><img src="cid:logo">`,
        attachments:
          i === 4
            ? [
                { filename: 'notes.txt', content: 'the notes' },
                { filename: 'logo.png', content: Buffer.from('png!'), contentType: 'image/png', cid: 'logo' },
              ]
            : [],
      });
    }
    // The newest first, as every list.
    const listed = await until(async () => {
      const page = await resend.emails.receiving.list({ limit: 100 });
      return page.data?.data.length === 5 && page.data.data;
    }, 'five received emails');
    received.push(...listed.map((e) => e.id));
  });
  afterAll(async () => {
    await listener.close();
    await m.close();
  });

  it("lists received emails in Resend's shape, walked to the end with after and back with before", async () => {
    const first = await resend.emails.receiving.list({ limit: 2 });
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ object: 'list', has_more: true });
    expect(first.data!.data[0]).toEqual({
      id: received[0],
      to: ['Desk <hello@desk.test>'],
      from: 'Ann Sender <ann@outside.test>',
      created_at: expect.any(String),
      subject: 'Question 4',
      bcc: null,
      cc: ['other@outside.test'],
      reply_to: null, // lists read no headers: get has it
      received_for: ['hello@desk.test'],
      message_id: expect.stringMatching(/^<.+>$/),
      attachments: expect.arrayContaining([
        expect.objectContaining({ filename: 'notes.txt', content_disposition: 'attachment', content_id: null }),
        expect.objectContaining({ filename: 'logo.png', content_type: 'image/png', content_disposition: 'inline' }),
      ]),
    });

    const forward: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await resend.emails.receiving.list(after ? { limit: 2, after } : { limit: 2 });
      forward.push(...page.data!.data.map((e) => e.id));
      if (!page.data!.has_more) break;
      after = forward.at(-1);
    }
    expect(forward).toEqual(received);

    const backward: string[] = [];
    let before = received.at(-1)!;
    for (;;) {
      const page = await resend.emails.receiving.list({ limit: 2, before });
      backward.unshift(...page.data!.data.map((e) => e.id));
      if (!page.data!.has_more) break;
      before = backward[0]!;
    }
    expect(backward).toEqual(received.slice(0, -1));
  });

  it('gets one with its bodies, headers and a link to the message as received', async () => {
    const got = await resend.emails.receiving.get(received[1]!);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({
      object: 'email',
      id: received[1],
      subject: 'Question 3',
      text: 'Body 3',
      html: '<p>Body 3</p><img src="cid:logo">',
      headers: expect.objectContaining({ subject: 'Question 3' }),
      reply_to: ['replies@outside.test'],
      attachments: [],
    });
    const raw = await download(got.data!.raw!.download_url);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('message/rfc822');
    expect(await raw.text()).toContain('Subject: Question 3');
    expect(Date.parse(got.data!.raw!.expires_at) - Date.now()).toBeGreaterThan(50 * 60_000);
  });

  it('lists and gets the attachments of a received email, and their links give the bytes', async () => {
    const list = await resend.emails.receiving.attachments.list({ emailId: received[0]! });
    expect(list.error).toBeNull();
    expect(list.data).toMatchObject({ object: 'list', has_more: false });
    const notes = list.data!.data.find((a) => a.filename === 'notes.txt');
    const logo = list.data!.data.find((a) => a.filename === 'logo.png');
    const [second] = list.data!.data.slice(1);
    expect(notes).toMatchObject({ filename: 'notes.txt', size: 9, content_disposition: 'attachment' });
    expect(logo).toMatchObject({ filename: 'logo.png', content_id: 'logo', content_disposition: 'inline' });

    const paged = await resend.emails.receiving.attachments.list({
      emailId: received[0]!,
      limit: 1,
      after: list.data!.data[0]!.id,
    });
    expect(paged.data).toMatchObject({ has_more: false, data: [{ id: second!.id }] });
    const back = await resend.emails.receiving.attachments.list({
      emailId: received[0]!,
      limit: 1,
      before: second!.id,
    });
    expect(back.data).toMatchObject({ has_more: false, data: [{ id: list.data!.data[0]!.id }] });

    const one = await resend.emails.receiving.attachments.get({ emailId: received[0]!, id: logo!.id });
    expect(one.data).toMatchObject({ object: 'attachment', id: logo!.id, content_type: 'image/png' });
    const bytes = await download(one.data!.download_url);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await bytes.arrayBuffer()).toString()).toBe('png!');
  });

  it('lists and gets the attachments of a sent email, and their links give the bytes', async () => {
    const sender = await m.verifiedDomain('sends.test');
    const own = new Resend(sender.project.secretKey, { baseUrl: base });
    const sent = await own.emails.send({
      from: 'hello@sends.test',
      to: 'ada@dest.test',
      subject: 'With files',
      html: '<p>See attached</p>',
      attachments: [
        { filename: 'a.txt', content: Buffer.from('first file').toString('base64') },
        { filename: 'b.csv', content: Buffer.from('x,y\n1,2').toString('base64'), contentType: 'text/csv' },
      ],
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;
    const list = await own.emails.attachments.list({ emailId: id });
    expect(list.data).toMatchObject({
      object: 'list',
      has_more: false,
      data: [
        { id: '0', filename: 'a.txt', size: 10, content_disposition: 'attachment' },
        { id: '1', filename: 'b.csv', content_type: 'text/csv' },
      ],
    });
    const page = await own.emails.attachments.list({ emailId: id, limit: 1 });
    expect(page.data).toMatchObject({ has_more: true, data: [{ id: '0' }] });
    const one = await own.emails.attachments.get({ emailId: id, id: '1' });
    expect(one.data).toMatchObject({ object: 'attachment', id: '1', filename: 'b.csv' });
    expect(await (await download(one.data!.download_url)).text()).toBe('x,y\n1,2');

    // Another project's key sees none of it.
    expect((await resend.emails.attachments.list({ emailId: id })).error).toMatchObject({ name: 'not_found' });
    expect((await own.emails.attachments.get({ emailId: id, id: '7' })).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
  });

  it('forwards a received email with the SDK: its message as received, attached, reaches the sink', async () => {
    // The SDK reads the email, downloads its raw_url, and sends it attached from the project's verified domain.
    const forwarded = await resend.emails.receiving.forward({
      emailId: received[2]!,
      from: 'desk@desk.test',
      to: 'boss@dest.test',
      passthrough: false,
      text: 'See below',
    });
    expect(forwarded.error).toBeNull();
    const message = await until(() => m.sink.messages.find((msg) => msg.to.includes('boss@dest.test')), 'forward');
    const parsed = await simpleParser(message.raw);
    expect(parsed.subject).toBe('Fwd: Question 2');
    // The message travels as a message/rfc822 part, which the parser reads into the text after the note.
    expect(parsed.text).toMatch(/^See below[\s\S]*Subject: Question 2[\s\S]*Body 2/);
    expect(message.raw.toString()).toMatch(/Content-Type: message\/rfc822;?\s+name=forwarded_message\.eml/i);
  });

  it('refuses a forged or expired link, and one to content past retention', async () => {
    const one = await resend.emails.receiving.attachments.list({ emailId: received[0]! });
    const url = one.data!.data[0]!.download_url;
    expect((await download(url)).status).toBe(200);
    const forged = await download(url.slice(0, -2) + (url.endsWith('A') ? 'BB' : 'AA'));
    expect(forged.status).toBe(404);
    expect(await forged.json()).toMatchObject({ statusCode: 404, name: 'not_found' });

    const expiredToken = createDownloadToken(APP_SECRET, {
      projectId,
      kind: 'inbound-attachment',
      recordId: received[0]!,
      fileId: one.data!.data[0]!.id,
      expiresAt: new Date(Date.now() - 1000),
    });
    const expired = await fetch(`${base}/downloads/${expiredToken}`);
    expect(expired.status).toBe(410);

    await expireInbound({ db: m.t.ctx.db, days: 0, now: new Date(Date.now() + 60_000) });
    const gone = await download(url);
    expect(gone.status).toBe(410);
    expect((await resend.emails.receiving.get(received[0]!)).data).toMatchObject({ raw: null, text: null });
  });

  it("surfaces Resend's errors: invalid key, not found, validation", async () => {
    const invalid = await new Resend('sk_not_a_key', { baseUrl: base }).emails.receiving.list();
    expect(invalid.error).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
    const missing = await fetch(`${base}/emails/receiving`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ name: 'missing_api_key' });
    const unknown = await resend.emails.receiving.get(crypto.randomUUID());
    expect(unknown.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const tooMany = await resend.emails.receiving.list({ limit: 500 });
    expect(tooMany.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const badAfter = await resend.emails.receiving.list({ after: crypto.randomUUID() });
    expect(badAfter.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});
