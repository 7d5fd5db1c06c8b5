// The inbound listener faces the internet: SPF, DKIM and DMARC verdicts computed on arrival through DNS_SERVERS,
// malformed dialogues and messages answered with SMTP errors (never a crash, never a half-stored message), slow
// clients cut off, and one listener for feedback and inbound mail when their ports are equal.
import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { dsn } from '../../support/reports.ts';
import { smtpDialogue } from '../../support/smtp-client.ts';

type Auth = { authorization: string };
// The API's JSON as the tests read it (checked by the OpenAPI tests, not here).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InboundItem = Record<string, any>;

function dkimKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const record = `v=DKIM1; k=rsa; p=${p}`;
  // A TXT character-string holds at most 255 bytes: a 2048-bit key takes two.
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    record: [record.slice(0, 255), record.slice(255)],
  };
}

describe('inbound listener: authentication and hostile input', () => {
  let m: MailFixture;
  let listener: SmtpListener;
  let auth: Auth;

  beforeAll(async () => {
    m = await startMailFixture();
    auth = (await m.receivingDomain('desk.test')).auth;
    listener = await startInboundReceiver(m.t.ctx, 0);
  });
  afterAll(async () => {
    await listener.close();
    await m.close();
  });

  const client = () =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: listener.port,
      secure: false,
      ignoreTLS: true,
      name: 'mx.signer.test',
    });
  const byFrom = async (from: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/inbound?from=${encodeURIComponent(from)}`, headers: auth })).json()
      .data as { total: number; items: InboundItem[] };

  it(
    'computes SPF, DKIM and DMARC on arrival through DNS_SERVERS: pass for a signed ' +
      'message from an allowed address',
    async () => {
      const keys = dkimKeys();
      m.dns.setRecords('signer.test', [{ type: 'TXT', data: 'v=spf1 ip4:127.0.0.1 -all' }]);
      m.dns.setRecords('sel._domainkey.signer.test', [{ type: 'TXT', data: keys.record }]);
      m.dns.setRecords('_dmarc.signer.test', [{ type: 'TXT', data: 'v=DMARC1; p=reject' }]);
      await client().sendMail({
        from: 'ok@signer.test',
        to: 'desk@desk.test',
        subject: 'Signed',
        text: 'hello',
        dkim: { domainName: 'signer.test', keySelector: 'sel', privateKey: keys.privateKey },
      });
      expect((await byFrom('ok@signer.test')).items[0]!.authentication).toEqual({
        spf: 'pass',
        dkim: 'pass',
        dmarc: 'pass',
      });
    },
  );

  it('reports fail for a signature by another key and a sender address SPF does not allow', async () => {
    const published = dkimKeys();
    const other = dkimKeys();
    m.dns.setRecords('forger.test', [{ type: 'TXT', data: 'v=spf1 ip4:192.0.2.1 -all' }]);
    m.dns.setRecords('sel._domainkey.forger.test', [{ type: 'TXT', data: published.record }]);
    m.dns.setRecords('_dmarc.forger.test', [{ type: 'TXT', data: 'v=DMARC1; p=reject' }]);
    await client().sendMail({
      from: 'ceo@forger.test',
      to: 'desk@desk.test',
      subject: 'Wire money',
      text: 'now',
      dkim: { domainName: 'forger.test', keySelector: 'sel', privateKey: other.privateKey },
    });
    expect((await byFrom('ceo@forger.test')).items[0]!.authentication).toEqual({
      spf: 'fail',
      dkim: 'fail',
      dmarc: 'fail',
    });
    await client().sendMail({ from: 'plain@unsigned.test', to: 'desk@desk.test', subject: 'Plain', text: 'x' });
    expect((await byFrom('plain@unsigned.test')).items[0]!.authentication).toMatchObject({
      dkim: 'none',
      dmarc: 'none',
    });
  });

  it('answers garbage commands, NUL bytes and commands out of order with SMTP errors and keeps serving', async () => {
    const c = await smtpDialogue(listener.port);
    expect(c.greeting).toMatch(/^220 /);
    expect(await c.send('FROBNICATE now')).toMatch(/^5\d\d /);
    expect(await c.send('EHLO\0evil')).toMatch(/^[25]\d\d[ -]/);
    expect(await c.send('EHLO client.test')).toMatch(/250 /);
    expect(await c.send('DATA')).toMatch(/^503 /);
    expect(await c.send('RCPT TO:<desk@desk.test>')).toMatch(/^503 /);
    expect(await c.send('MAIL FROM:<not an address')).toMatch(/^5\d\d /);
    expect(await c.send('MAIL FROM:<a@b.test>')).toMatch(/^250 /);
    expect(await c.send('RCPT TO:<desk@DESK.TEST>')).toMatch(/^250 /);
    expect(await c.send('RCPT TO:<desk@nowhere.test>')).toMatch(/^550 5\.1\.1/);
    for (let i = 1; i < 100; i++) await c.send(`RCPT TO:<desk${i}@desk.test>`);
    expect(await c.send('RCPT TO:<one-too-many@desk.test>')).toMatch(/^452 4\.5\.3/);
    expect(await c.send('NOOP')).toMatch(/^250 /);
    expect(await c.send('QUIT')).toMatch(/^221 /);
    await c.closed;
  });

  it('stores 8-bit headers, NUL bytes and broken MIME as readable records', async () => {
    const c = await smtpDialogue(listener.port);
    await c.send('EHLO client.test');
    await c.send('MAIL FROM:<raw@sender.test>');
    await c.send('RCPT TO:<desk@desk.test>');
    expect(await c.send('DATA')).toMatch(/^354 /);
    const body = Buffer.concat([
      Buffer.from('From: Jos\xe9 <raw@sender.test>\r\nTo: desk@desk.test\r\nSubject: Caf\xe9 ', 'latin1'),
      Buffer.from('naïve 😀', 'utf8'),
      Buffer.from(
        '\r\nX-Nul: a\0b\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; ' +
          'boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nhello\0world\r\n' +
          '--b1\r\nContent-Type: application/pdf; ' +
          'name="x.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n@@not base64!!\r\n' +
          '--b1\r\nContent-Type: text/html; charset=unknown-charset\r\n\r\n<p>\xff\xfe</p>\r\n\r\n.\r\n',
        'latin1',
      ),
    ]);
    expect(await c.write(body)).toMatch(/^250 /);
    await c.send('QUIT');
    const record = (
      await m.t.app.inject({
        method: 'GET',
        url: `/inbound/${(await byFrom('raw@sender.test')).items[0]!.id}`,
        headers: auth,
      })
    ).json().data;
    expect(record.subject).toContain('Caf');
    expect(record.text).toContain('hello');
    expect(JSON.stringify(record)).not.toContain('\\u0000');
    expect(record.headers['x-nul']).toBe('a\uFFFDb');
    const raw = await m.t.app.inject({ method: 'GET', url: `/inbound/${record.id}/raw`, headers: auth });
    expect(raw.rawPayload.includes(Buffer.from('X-Nul: a\0b', 'latin1'))).toBe(true);
  });

  it(
    'refuses a 30 MB message with 552 (over the default 25 MB), stores nothing, and ' + 'still takes the next one',
    async () => {
      const huge =
        `From: huge@sender.test\r\nTo: desk@desk.test\r\nSubject: huge\r\n\r\n` +
        `${`${'y'.repeat(998)}\r\n`.repeat(30 * 1024)}`;
      await expect(
        client().sendMail({ envelope: { from: 'huge@sender.test', to: ['desk@desk.test'] }, raw: huge }),
      ).rejects.toMatchObject({ responseCode: 552 });
      expect((await byFrom('huge@sender.test')).total).toBe(0);
      await client().sendMail({ from: 'after@sender.test', to: 'desk@desk.test', subject: 'after', text: 'ok' });
      expect((await byFrom('after@sender.test')).total).toBe(1);
    },
  );

  it(
    'closes a connection that stops talking (slow-loris) and stores nothing of a ' + 'message cut off in DATA',
    async () => {
      const impatient = await startInboundReceiver(m.t.ctx, 0, { socketTimeoutMs: 500 });
      const c = await smtpDialogue(impatient.port);
      await c.send('EHLO slow.test');
      await c.send('MAIL FROM:<slow@sender.test>');
      await c.send('RCPT TO:<desk@desk.test>');
      await c.send('DATA');
      void c.write('From: slow@sender.test\r\nSubject: never finished\r\n\r\nbody');
      await c.closed;
      await impatient.close();
      expect((await byFrom('slow@sender.test')).total).toBe(0);
    },
  );
});

describe('one listener for feedback and inbound mail', () => {
  let m: MailFixture;

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    m = await startMailFixture({
      env: {
        RETURN_PATH_HOST: 'feedback.herald.test',
        FEEDBACK_SMTP_PORT: String(port),
        INBOUND_SMTP_PORT: String(port),
      },
    });
  });
  afterAll(async () => {
    await m.close();
  });

  it("gives bounce recipients to feedback and receiving domains' recipients to inbound, on one port", async () => {
    const { auth, domainId } = await m.verifiedDomain('shared.test');
    await m.t.app.inject({ method: 'PATCH', url: `/domains/${domainId}`, headers: auth, payload: { receiving: true } });
    const port = m.t.ctx.config.inbound.port!;
    const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });

    const sent = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: { to: 'gone@dest.test', from: 'news@shared.test', subject: 'Hi', body: '<p>Hi</p>' },
    });
    const id = sent.json().data.emails[0].email as string;
    await m.waitForStatus(auth, id, ['SENT']);
    const returnPath = m.sink.messages.find((msg) => msg.to.includes('gone@dest.test'))!.from;
    await client.sendMail({
      envelope: { from: 'mailer-daemon@mx.dest.test', to: [returnPath] },
      raw: dsn({ to: returnPath, recipient: 'gone@dest.test', status: '5.1.1' }),
    });
    expect((await m.waitForStatus(auth, id, ['BOUNCED'])).status).toBe('BOUNCED');

    await client.sendMail({
      from: 'person@dest.test',
      to: 'hello@shared.test',
      subject: 'Inbound on the shared port',
      text: 'hi',
    });
    const inbound = (await m.t.app.inject({ method: 'GET', url: '/inbound', headers: auth })).json().data;
    expect(inbound.items.map((i: { subject: string }) => i.subject)).toEqual(['Inbound on the shared port']);
    await expect(
      client.sendMail({ envelope: { from: 'a@dest.test', to: ['nobody@elsewhere.test'] }, raw: 'Subject: x\r\n\r\nx' }),
    ).rejects.toMatchObject({ responseCode: 550 });
  });
});
