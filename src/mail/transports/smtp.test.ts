import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from 'mailauth';
import { startSmtpSink } from '../../../test/support/smtp-sink.ts';
import type { SmtpSink } from '../../../test/support/smtp-sink.ts';
import { newId } from '../../lib/ids.ts';
import { composeMessage, messageIdFor } from '../compose.ts';
import { dkimTxtValue, generateDkimKeyPair, splitTxtValue } from '../dkim-keys.ts';
import type { DkimKeyPair } from '../dkim-keys.ts';
import { DeliveryError } from '../transport.ts';
import type { Transport } from '../transport.ts';
import { classifySmtpError, createSmtpTransport, parseSmtpUrl } from './smtp.ts';

let sink: SmtpSink;
let transport: Transport;
let keys: DkimKeyPair;

beforeAll(async () => {
  [sink, keys] = await Promise.all([startSmtpSink(), generateDkimKeyPair()]);
  transport = createSmtpTransport({ url: sink.url, connectionTimeoutMs: 2_000 });
});

afterEach(() => {
  sink.clear();
  sink.clearFailures();
});

afterAll(async () => {
  await transport.close();
  await sink.close();
});

async function message(to: string): Promise<Buffer> {
  return composeMessage({
    from: { email: 'news@example.com', name: 'News' },
    to: { email: to },
    subject: 'Hello',
    // A line starting with "." exercises SMTP dot-stuffing, a classic way to break signatures in transit.
    text: 'Line one\n.leading dot line\n..two dots\nend',
    html: '<p>Line one</p>\n.<p>dot</p>',
    messageId: messageIdFor({ id: newId(), fromEmail: 'sender@example.com' }),
    dkim: { domainName: 'example.com', keySelector: 's1', privateKey: keys.privateKeyPem },
  });
}

async function sendExpectingError(to: string, t: Transport = transport): Promise<DeliveryError> {
  const raw = await message(to);
  const err = await t.send({ from: 'bounce@example.com', to, raw, emailId: 'em_x' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeliveryError);
  return err as DeliveryError;
}

describe('SMTP transport against a real SMTP server', () => {
  it('delivers the message byte for byte with the explicit envelope, and DKIM still passes', async () => {
    const raw = await message('alice@example.org');
    const result = await transport.send({ from: 'bounce@example.com', to: 'alice@example.org', raw, emailId: 'em_1' });
    expect(result.response).toMatch(/^250/);
    const [received] = await sink.waitForMessages(1);
    expect(received?.from).toBe('bounce@example.com');
    expect(received?.to).toEqual(['alice@example.org']);
    expect(received?.raw.equals(raw)).toBe(true);
    const auth = await authenticate(received?.raw ?? Buffer.alloc(0), {
      resolver: async (name: string) => {
        if (name === 's1._domainkey.example.com') return [splitTxtValue(dkimTxtValue(keys.publicKeyBase64))];
        throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      },
      ip: '127.0.0.1',
      helo: 'localhost',
      sender: 'bounce@example.com',
      mta: 'mx.test',
      disableArc: true,
      disableBimi: true,
      disableDmarc: true,
    });
    expect(auth.dkim.results[0]?.status.result).toBe('pass');
  });

  it('451 → temporary DeliveryError, then accepted once the server stops deferring', async () => {
    sink.failRecipient('slow@example.org', { code: 451, message: '4.3.0 Temporary failure, try later', times: 2 });
    for (let i = 0; i < 2; i++) {
      const err = await sendExpectingError('slow@example.org');
      expect(err.kind).toBe('temporary');
      expect(err.responseCode).toBe(451);
      expect(err.enhancedCode).toBe('4.3.0');
      expect(err.suppress).toBe(false);
    }
    const raw = await message('slow@example.org');
    await transport.send({ from: 'b@example.com', to: 'slow@example.org', raw, emailId: 'em_2' });
    expect(sink.messages).toHaveLength(1);
    expect(sink.rcptAttempts.map((a) => a.accepted)).toEqual([false, false, true]);
  });

  it('550 5.1.1 → permanent and suppress', async () => {
    sink.failRecipient('gone@example.org', {
      code: 550,
      message: '5.1.1 <gone@example.org>: Recipient address rejected: User unknown',
    });
    const err = await sendExpectingError('gone@example.org');
    expect(err).toMatchObject({ kind: 'permanent', responseCode: 550, enhancedCode: '5.1.1', suppress: true });
    expect(err.command).toMatch(/^RCPT/);
    expect(sink.messages).toHaveLength(0);
  });

  it('550 5.7.515 (sender authentication policy) → permanent, not suppress', async () => {
    sink.failRecipient('user@outlook.test', {
      code: 550,
      message: '5.7.515 Access denied, sending domain example.com does not meet the required authentication level',
    });
    const err = await sendExpectingError('user@outlook.test');
    expect(err).toMatchObject({ kind: 'permanent', responseCode: 550, enhancedCode: '5.7.515', suppress: false });
  });

  it('rejections at the end of DATA are classified the same way', async () => {
    sink.failRecipient('late@example.org', { code: 550, message: '5.1.1 mailbox unavailable', stage: 'data' });
    sink.failRecipient('spam@example.org', { code: 554, message: '5.7.1 Message rejected as spam', stage: 'data' });
    sink.failRecipient('busy@example.org', { code: 452, message: '4.2.2 Mailbox full', stage: 'data' });
    expect(await sendExpectingError('late@example.org')).toMatchObject({
      kind: 'permanent',
      suppress: true,
      command: 'DATA',
    });
    expect(await sendExpectingError('spam@example.org')).toMatchObject({ kind: 'permanent', suppress: false });
    expect(await sendExpectingError('busy@example.org')).toMatchObject({ kind: 'temporary', suppress: false });
  });

  it('connection refused → temporary', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const dead = createSmtpTransport({ url: `smtp://127.0.0.1:${port}`, connectionTimeoutMs: 1_000 });
    try {
      const err = await sendExpectingError('a@example.org', dead);
      expect(err.kind).toBe('temporary');
      expect(err.responseCode).toBeUndefined();
    } finally {
      await dead.close();
    }
  });

  it('authenticates with credentials from the URL and sends messages concurrently over the pool', async () => {
    const authed = createSmtpTransport({
      url: sink.url.replace('smtp://', 'smtp://user%40x:p%3Ass@'),
      maxConnections: 3,
    });
    try {
      const recipients = Array.from({ length: 12 }, (_, i) => `r${i}@example.org`);
      const results = await Promise.all(
        recipients.map(async (to, i) =>
          authed.send({ from: 'b@example.com', to, raw: await message(to), emailId: `em_${i}` }),
        ),
      );
      expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([...recipients].sort());
      // Each result carries its conversation: a new connection's names AUTH by its mechanism, never the credentials.
      const lines = results.map((r) => (r.conversation ?? []).map((l) => `${l.from}: ${l.line}`));
      const opened = lines.filter((l) => l.some((x) => x.startsWith('C: AUTH')));
      expect(opened.length).toBeGreaterThanOrEqual(1);
      for (const l of opened) expect(l.find((x) => x.startsWith('C: AUTH'))).toBe('C: AUTH PLAIN');
      for (const l of lines) expect(l).toContain('C: DATA');
      const all = JSON.stringify(lines);
      expect(all).not.toContain(Buffer.from('\0u@x\0p:ss').toString('base64'));
      expect(all).not.toContain('p:ss');
    } finally {
      await authed.close();
    }
  });
});

describe('parseSmtpUrl', () => {
  it('reads host, port, TLS mode, credentials and options', () => {
    expect(parseSmtpUrl('smtp://u%40x:p%3Ass@mail.example.com:2525?requireTLS=true&name=herald.local')).toMatchObject({
      host: 'mail.example.com',
      port: 2525,
      secure: false,
      requireTLS: true,
      name: 'herald.local',
      auth: { user: 'u@x', pass: 'p:ss' },
    });
    expect(parseSmtpUrl('smtps://smtp.example.com')).toMatchObject({ port: 465, secure: true });
    expect(parseSmtpUrl('smtp://smtp.example.com')).toMatchObject({ port: 587, secure: false });
    expect(parseSmtpUrl('smtp://h?rejectUnauthorized=false')).toMatchObject({ tls: { rejectUnauthorized: false } });
  });

  it('refuses bad URLs', () => {
    expect(() => parseSmtpUrl('http://x')).toThrow(/smtp/);
    expect(() => parseSmtpUrl('not a url')).toThrow();
    expect(() => parseSmtpUrl('smtp://h?foo=1')).toThrow(/unknown option/);
    expect(() => parseSmtpUrl('smtp://h?requireTLS=maybe')).toThrow();
    expect(() => parseSmtpUrl('smtp://h?maxConnections=0')).toThrow();
  });
});

describe('classifySmtpError', () => {
  it('never bounces on configuration errors or 503', () => {
    expect(
      classifySmtpError(
        Object.assign(new Error('auth'), {
          code: 'EAUTH',
          responseCode: 535,
          command: 'AUTH PLAIN',
          response: '535 5.7.8 bad credentials',
        }),
      ).kind,
    ).toBe('temporary');
    expect(
      classifySmtpError(
        Object.assign(new Error('x'), {
          code: 'EENVELOPE',
          responseCode: 503,
          command: 'RCPT TO',
          response: '503 5.5.1 bad sequence',
        }),
      ).kind,
    ).toBe('temporary');
    expect(
      classifySmtpError(
        Object.assign(new Error('x'), {
          code: 'EPROTOCOL',
          responseCode: 554,
          command: 'CONN',
          response: '554 no service',
        }),
      ).kind,
    ).toBe('temporary');
    expect(classifySmtpError(Object.assign(new Error('t'), { code: 'ETIMEDOUT' })).kind).toBe('temporary');
  });

  it('bare 550 on RCPT suppresses; a 5xx to MAIL FROM is permanent without suppressing', () => {
    expect(
      classifySmtpError(
        Object.assign(new Error('x'), {
          code: 'EENVELOPE',
          responseCode: 550,
          command: 'RCPT TO',
          response: '550 No such user here',
        }),
      ),
    ).toMatchObject({ kind: 'permanent', suppress: true });
    expect(
      classifySmtpError(
        Object.assign(new Error('x'), {
          code: 'EENVELOPE',
          responseCode: 553,
          command: 'MAIL FROM',
          response: '553 5.1.8 sender domain rejected',
        }),
      ),
    ).toMatchObject({ kind: 'permanent', suppress: false });
  });
});
