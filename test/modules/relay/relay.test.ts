// The SMTP submission relay as apps use it: nodemailer over loopback with AUTH, the message that reaches the mail
// server (the test SMTP sink) as the client wrote it plus Herald's Message-ID and DKIM, and GET /emails.
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { relayTransport } from '../../support/smtp-client.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('SMTP submission relay', () => {
  let m: MailFixture;
  let relay: SubmissionRelay;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('example.test');
    relay = await startSubmissionRelay(m.t.ctx, 0);
  });
  afterAll(async () => {
    await relay.close();
    await m.close();
  });

  it(
    'sends what the app wrote to every envelope recipient: parts, attachments, inline ' +
      'image, Cc, Reply-To, threading, X- headers; no Bcc',
    async () => {
      const transport = relayTransport(relay.port, sender.project.secretKey);
      // Write the Bcc header into the message, as some clients do (nodemailer leaves it out by default): Herald must
      // remove it.
      transport.use('stream', (mail, done) => {
        mail.message.keepBcc = true;
        done();
      });
      const pdf = Buffer.from('%PDF-1.4 invoice 42 ' + 'x'.repeat(3000));
      const info = await transport.sendMail({
        from: '"Shop Orders" <orders@example.test>',
        to: 'Ann Example <ann@dest.test>',
        cc: 'bob@dest.test',
        bcc: 'carol@dest.test',
        replyTo: 'help@example.test',
        subject: 'Your order ✓ shipped',
        inReplyTo: '<order-41@example.test>',
        references: ['<order-40@example.test>', '<order-41@example.test>'],
        headers: { 'X-Order-Id': '42' },
        text: 'Hello Ann, your order shipped.',
        html: '<p>Hello Ann, <b>your order</b> shipped.</p><img src="cid:logo@shop">',
        attachments: [
          { filename: 'invoice.pdf', content: pdf, contentType: 'application/pdf' },
          { filename: 'logo.png', content: PNG, cid: 'logo@shop' },
        ],
      });
      transport.close();
      const match = /^250 2\.0\.0 Ok: queued as ([0-9a-f-]{36}(,[0-9a-f-]{36})*)$/.exec(info.response);
      expect(match, info.response).not.toBeNull();
      const ids = match![1]!.split(',');
      expect(ids).toHaveLength(3);

      const received = await m.sink.waitForMessages(3);
      expect(received.map((r) => r.to[0]).sort()).toEqual(['ann@dest.test', 'bob@dest.test', 'carol@dest.test']);
      for (const message of received) {
        const raw = message.raw.toString('latin1');
        expect(raw).not.toMatch(/^bcc:/im);
        expect(raw).not.toContain('carol@dest.test');
        const parsed = await simpleParser(message.raw, { keepCidLinks: true });
        expect(parsed.from?.text).toBe('"Shop Orders" <orders@example.test>');
        expect(parsed.to && 'text' in parsed.to ? parsed.to.text : null).toBe('"Ann Example" <ann@dest.test>');
        expect(parsed.cc && 'text' in parsed.cc ? parsed.cc.text : null).toBe('bob@dest.test');
        expect(parsed.replyTo?.text).toBe('help@example.test');
        expect(parsed.subject).toBe('Your order ✓ shipped');
        expect(parsed.inReplyTo).toBe('<order-41@example.test>');
        expect(parsed.references).toEqual(['<order-40@example.test>', '<order-41@example.test>']);
        expect(parsed.headers.get('x-order-id')).toBe('42');
        expect(parsed.text?.trim()).toBe('Hello Ann, your order shipped.');
        expect(parsed.html).toContain('<img src="cid:logo@shop">');
        expect(parsed.html).not.toContain('/t/o/'); // tracking is off unless asked for
        expect(parsed.date).toBeInstanceOf(Date);
        const invoice = parsed.attachments.find((a) => a.filename === 'invoice.pdf')!;
        expect(invoice.content.equals(pdf)).toBe(true);
        const logo = parsed.attachments.find((a) => a.cid === 'logo@shop')!;
        expect(logo.content.equals(PNG)).toBe(true);
        const id = /^<([0-9a-f-]{36})@example\.test>$/.exec(parsed.messageId ?? '')?.[1];
        expect(ids).toContain(id);
        const auth = await authenticate(message.raw, {
          resolver: m.resolve as never,
          ip: '127.0.0.1',
          helo: 'test',
          sender: 'orders@example.test',
          trustReceived: false,
        });
        expect(auth.dkim.results[0]!.status.result).toBe('pass');
        expect(auth.dkim.results[0]!.signingDomain).toBe('example.test');
      }
      // The client's MIME is kept: the body after the headers is byte for byte what nodemailer sent (its boundaries).
      const boundary = /boundary="?([^";\r\n]+)"?/i.exec(received[0]!.raw.toString('latin1'))![1]!;
      expect(received.every((r) => r.raw.toString('latin1').includes(`--${boundary}`))).toBe(true);
      // What Herald keeps of the message names no hidden recipient either (Bcc is removed before it is stored).
      const stored = await m.t.ctx.db.execute(
        sql`SELECT m.content FROM email_mime m JOIN emails e ON e.mime_id = m.id WHERE e.id = ${ids[0]!}::uuid`,
      );
      const kept = Buffer.from((stored as unknown as { rows: { content: Uint8Array }[] }).rows[0]!.content).toString(
        'latin1',
      );
      expect(kept).toContain('Hello Ann, your order shipped.');
      expect(kept).not.toMatch(/^bcc:/im);
      expect(kept).not.toContain('carol@dest.test');

      const list = await m.t.app.inject({ method: 'GET', url: '/emails?limit=10', headers: sender.auth });
      const emails = list.json().data.items as {
        id: string;
        to: string;
        from: string;
        subject: string;
        source: unknown;
        contactId: string;
      }[];
      const mine = emails.filter((e) => ids.includes(e.id));
      expect(mine).toHaveLength(3);
      for (const e of mine) {
        expect(e.source).toEqual({ type: 'SMTP', id: null });
        expect(e.from).toBe('orders@example.test');
        expect(e.subject).toBe('Your order ✓ shipped');
      }
      const contact = await m.t.app.inject({
        method: 'GET',
        url: `/contacts/${mine[0]!.contactId}`,
        headers: sender.auth,
      });
      expect(contact.json().data.subscribed).toBe(false);
      await until(async () => {
        const statuses = await Promise.all(
          ids.map(
            async (id) =>
              (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: sender.auth })).json().data.status,
          ),
        );
        return statuses.every((s) => s === 'SENT');
      }, 'the relayed emails to be SENT');

      // What was sent can be read back: the bodies from the client's MIME, and the source with its boundaries.
      const content = await m.t.app.inject({ method: 'GET', url: `/emails/${ids[0]}/content`, headers: sender.auth });
      expect(content.statusCode).toBe(200);
      expect(content.json().data).toMatchObject({
        subject: 'Your order ✓ shipped',
        from: 'orders@example.test',
        text: 'Hello Ann, your order shipped.',
      });
      expect(content.json().data.html).toContain('<b>your order</b> shipped.');
      const source = await m.t.app.inject({ method: 'GET', url: `/emails/${ids[0]}/source`, headers: sender.auth });
      expect(source.statusCode).toBe(200);
      expect(source.json().data.source).toContain(`--${boundary}`);
    },
  );

  it('adds Date when the client wrote none, and keeps the one it wrote', async () => {
    m.sink.clear();
    const transport = relayTransport(relay.port, sender.project.secretKey);
    const raw = 'From: a@example.test\r\nTo: d1@dest.test\r\nSubject: no date\r\n\r\nbody\r\n';
    await transport.sendMail({ envelope: { from: 'bounce@elsewhere.test', to: ['d1@dest.test'] }, raw });
    await transport.sendMail({
      envelope: { from: 'a@example.test', to: ['d2@dest.test'] },
      raw: raw.replace('Subject', 'Date: Mon, 02 Jan 2023 10:00:00 +0000\r\nSubject'),
    });
    transport.close();
    const [first, second] = await Promise.all([
      m.sink.waitForRecipient('d1@dest.test'),
      m.sink.waitForRecipient('d2@dest.test'),
    ]);
    expect((await simpleParser(first!.raw)).date).toBeInstanceOf(Date);
    expect((await simpleParser(second!.raw)).date?.toISOString()).toBe('2023-01-02T10:00:00.000Z');
    expect(second!.raw.toString('latin1').match(/^Date:/gim)).toHaveLength(1);
  });

  it(
    'honours Idempotency-Key (same ids, nothing queued again) and X-Herald-Tracking, ' + 'and sends neither header on',
    async () => {
      m.sink.clear();
      const transport = relayTransport(relay.port, sender.project.secretKey);
      const mail = {
        from: 'news@example.test',
        to: 'idem@dest.test',
        subject: 'Once',
        html: '<p><a href="https://shop.example/x">shop</a></p>',
        headers: { 'Idempotency-Key': 'order-42-mail', 'X-Herald-Tracking': 'true' },
      };
      const first = await transport.sendMail(mail);
      const again = await transport.sendMail(mail);
      transport.close();
      expect(again.response).toBe(first.response);
      const [id] = first.response.replace('250 2.0.0 Ok: queued as ', '').split(',');
      const received = await m.sink.waitForRecipient('idem@dest.test');
      const raw = received!.raw.toString('latin1');
      expect(raw).not.toMatch(/^idempotency-key:|^x-herald-tracking:/im);
      const parsed = await simpleParser(received!.raw);
      expect(parsed.html).toContain('https://mail.herald.test/t/'); // links and the pixel rewritten
      expect(parsed.html).not.toContain('href="https://shop.example/x"');
      expect(parsed.messageId).toBe(`<${id}@example.test>`);
      const auth = await authenticate(received!.raw, {
        resolver: m.resolve as never,
        ip: '127.0.0.1',
        helo: 'test',
        sender: 'news@example.test',
        trustReceived: false,
      });
      expect(auth.dkim.results[0]!.status.result).toBe('pass');
      const list = (await m.t.app.inject({ method: 'GET', url: '/emails?limit=10', headers: sender.auth })).json().data
        .items as { to: string }[];
      expect(list.filter((e) => e.to === 'idem@dest.test')).toHaveLength(1);
    },
  );
});
