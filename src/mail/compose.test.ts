import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import { newId } from '../lib/ids.ts';
import { ComposeError, composeMessage, emailIdInMessageId, messageIdFor } from './compose.ts';
import type { ComposeInput } from './compose.ts';
import { dkimRecordName, dkimTxtValue, generateDkimKeyPair, loadPrivateKey, splitTxtValue } from './dkim-keys.ts';
import type { DkimKeyPair } from './dkim-keys.ts';

const DOMAIN = 'mail.example.com';
const SELECTOR = 'herald202611';
let keys: DkimKeyPair;

beforeAll(async () => {
  keys = await generateDkimKeyPair();
});

function input(overrides: Partial<ComposeInput> = {}): ComposeInput {
  return {
    from: { email: `news@${DOMAIN}`, name: 'Exämple News' },
    to: { email: 'bob@example.org', name: 'Bob Smith' },
    replyTo: { email: `support@${DOMAIN}` },
    subject: 'Your November digest — ünïcode inside',
    html: '<html><body><p>Hello Bob,</p><p>' + 'long line '.repeat(150) + '</p></body></html>',
    text: 'Hello Bob,\n\n' + 'long line '.repeat(150),
    messageId: messageIdFor({ id: newId(), fromEmail: `news@${DOMAIN}` }),
    date: new Date('2026-11-02T10:00:00Z'),
    headers: { 'X-Campaign-Id': 'cmp_123' },
    attachments: [
      {
        filename: '../../etc/invoice.pdf',
        content: Buffer.from('%PDF-1.4 test').toString('base64'),
        contentType: 'application/pdf',
      },
    ],
    listUnsubscribeUrl: 'https://herald.example.net/u/' + 'A'.repeat(140),
    feedbackId: 'cmp123:prj1:marketing:herald',
    dkim: { domainName: DOMAIN, keySelector: SELECTOR, privateKey: keys.privateKeyPem },
    ...overrides,
  };
}

// Answers the DKIM TXT record as a DNS server would: the value split into ≤255-character strings.
function resolverFor(publicKeyBase64: string) {
  return async (name: string, rrtype: string): Promise<string[][]> => {
    if (rrtype === 'TXT' && name === dkimRecordName(SELECTOR, DOMAIN)) {
      return [splitTxtValue(dkimTxtValue(publicKeyBase64))];
    }
    throw Object.assign(new Error(`no ${rrtype} for ${name}`), { code: 'ENOTFOUND' });
  };
}

async function dkimResult(raw: Buffer): Promise<string | undefined> {
  const res = await authenticate(raw, {
    resolver: resolverFor(keys.publicKeyBase64),
    ip: '127.0.0.1',
    helo: 'localhost',
    sender: `news@${DOMAIN}`,
    mta: 'mx.test',
    disableArc: true,
    disableBimi: true,
    disableDmarc: true,
  });
  return res.dkim.results[0]?.status.result;
}

function headerBlock(raw: Buffer): string {
  const text = raw.toString('latin1');
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

function countHeader(raw: Buffer, name: string): number {
  return headerBlock(raw)
    .split('\r\n')
    .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`)).length;
}

describe('composeMessage', () => {
  it('produces a DKIM signature that passes a real verifier against the published record', async () => {
    const raw = await composeMessage(input());
    expect(await dkimResult(raw)).toBe('pass');
  });

  it('signs the List-Unsubscribe pair and the identity headers (h=)', async () => {
    const raw = await composeMessage(input());
    const sig = headerBlock(raw).match(/^DKIM-Signature:[\s\S]*?(?=\r\n\S)/m)?.[0] ?? '';
    const h = /\bh=([^;]+)/.exec(sig.replace(/\r\n\s+/g, ''))?.[1]?.split(':') ?? [];
    for (const field of [
      'from',
      'to',
      'subject',
      'date',
      'message-id',
      'reply-to',
      'mime-version',
      'content-type',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'feedback-id',
    ]) {
      expect(h).toContain(field);
    }
    expect(sig).toContain('a=rsa-sha256');
    expect(sig).toContain(`d=${DOMAIN}`);
    expect(sig).toContain(`s=${SELECTOR}`);
  });

  it('a tampered body or subject no longer passes', async () => {
    const raw = await composeMessage(input());
    const bodyTampered = Buffer.from(raw.toString('latin1').replace('Hello Bob,', 'Hello Eve,'), 'latin1');
    expect(bodyTampered.equals(raw)).toBe(false);
    expect(await dkimResult(bodyTampered)).not.toBe('pass');
    const headerTampered = Buffer.from(
      raw
        .toString('latin1')
        .replace('List-Unsubscribe-Post: List-Unsubscribe=One-Click', 'List-Unsubscribe-Post: List-Unsubscribe=Other'),
      'latin1',
    );
    expect(await dkimResult(headerTampered)).not.toBe('pass');
  });

  it('passes with a KeyObject too, and with minimal (transactional) input', async () => {
    const raw = await composeMessage(
      input({
        replyTo: undefined,
        headers: undefined,
        attachments: undefined,
        listUnsubscribeUrl: undefined,
        feedbackId: undefined,
        dkim: { domainName: DOMAIN, keySelector: SELECTOR, privateKey: loadPrivateKey(keys.privateKeyPem) },
      }),
    );
    expect(await dkimResult(raw)).toBe('pass');
    expect(countHeader(raw, 'List-Unsubscribe')).toBe(0);
    expect(countHeader(raw, 'List-Unsubscribe-Post')).toBe(0);
  });

  it('has exactly one of each identity header, CRLF line ends and no over-long lines', async () => {
    const msg = input();
    const raw = await composeMessage(msg);
    for (const name of [
      'From',
      'To',
      'Subject',
      'Date',
      'Message-ID',
      'MIME-Version',
      'Reply-To',
      'List-Unsubscribe',
      'List-Unsubscribe-Post',
      'Feedback-ID',
      'DKIM-Signature',
    ]) {
      expect(countHeader(raw, name), name).toBe(1);
    }
    const text = raw.toString('latin1');
    expect(/[^\r]\n/.test(text)).toBe(false);
    expect(Math.max(...text.split('\r\n').map((l) => l.length))).toBeLessThanOrEqual(998);
    expect(headerBlock(raw)).toContain(`Message-ID: ${msg.messageId}`);
    expect(headerBlock(raw)).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });

  it('parses back with mailparser: sender, date, ids, both parts, list headers, attachment', async () => {
    const msg = input();
    const parsed = await simpleParser(await composeMessage(msg));
    expect(parsed.from?.value).toEqual([{ address: `news@${DOMAIN}`, name: 'Exämple News' }]);
    expect(parsed.date?.toISOString()).toBe('2026-11-02T10:00:00.000Z');
    expect(parsed.messageId).toBe(msg.messageId);
    expect(parsed.subject).toBe(msg.subject);
    expect(parsed.text?.trim()).toBe(msg.text.trim());
    expect(parsed.html).toContain('<p>Hello Bob,</p>');
    expect(parsed.replyTo?.value[0]?.address).toBe(`support@${DOMAIN}`);
    // mailparser folds List-* headers into one `list` object.
    const list = parsed.headers.get('list') as Record<string, { url?: string; name?: string }> | undefined;
    expect(list?.unsubscribe?.url).toBe(msg.listUnsubscribeUrl);
    expect(list?.['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
    expect(parsed.headers.get('feedback-id')).toBe(msg.feedbackId);
    expect(parsed.headers.get('x-campaign-id')).toBe('cmp_123');
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]?.filename).toBe('invoice.pdf');
    expect(parsed.attachments[0]?.contentType).toBe('application/pdf');
    expect(parsed.attachments[0]?.content.toString()).toBe('%PDF-1.4 test');
  });

  it('refuses header injection and reserved header names', async () => {
    await expect(composeMessage(input({ headers: { 'X-Evil': 'a\r\nBcc: x@y.z' } }))).rejects.toThrow(ComposeError);
    await expect(composeMessage(input({ headers: { 'X-Evil\n': 'a' } }))).rejects.toThrow(ComposeError);
    await expect(composeMessage(input({ headers: { 'X-Nul': 'a\u0000b' } }))).rejects.toThrow(ComposeError);
    for (const name of [
      'From',
      'to',
      'Message-ID',
      'DKIM-Signature',
      'List-Unsubscribe',
      'list-unsubscribe-post',
      'Return-Path',
      'Content-Type',
      'Feedback-ID',
    ]) {
      await expect(composeMessage(input({ headers: { [name]: 'x' } })), name).rejects.toThrow(/cannot be overridden/);
    }
    await expect(composeMessage(input({ subject: 'a\nb' }))).rejects.toThrow(ComposeError);
    await expect(composeMessage(input({ from: { email: `news@${DOMAIN}`, name: 'A\r\nBcc: x@y.z' } }))).rejects.toThrow(
      ComposeError,
    );
    await expect(composeMessage(input({ to: { email: 'a@b.c, evil@x.y' } }))).rejects.toThrow(ComposeError);
  });

  it('accepts only base64 attachment content and never paths or URLs', async () => {
    await expect(
      composeMessage(input({ attachments: [{ filename: 'a.txt', content: 'not base64!' }] })),
    ).rejects.toThrow(/base64/);
    await expect(
      composeMessage(input({ attachments: [{ filename: 'a.txt', content: '/etc/passwd' }] })),
    ).rejects.toThrow(/base64/);
    const sneaky = [
      { filename: 'a.txt', content: 'aGk=', path: '/etc/passwd', href: 'http://169.254.169.254/' },
    ] as unknown as ComposeInput['attachments'];
    const parsed = await simpleParser(await composeMessage(input({ attachments: sneaky })));
    expect(parsed.attachments[0]?.content.toString()).toBe('hi');
  });

  it('takes a 10 MB attachment (base64 check does not blow the regex stack)', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 7);
    const raw = await composeMessage(
      input({ attachments: [{ filename: 'big.bin', content: big.toString('base64') }] }),
    );
    const parsed = await simpleParser(raw);
    expect(parsed.attachments[0]?.content.equals(big)).toBe(true);
  });

  it('checks the Message-ID, List-Unsubscribe URL and Feedback-ID formats', async () => {
    await expect(composeMessage(input({ messageId: 'no-brackets@x' }))).rejects.toThrow(/messageId/);
    await expect(composeMessage(input({ listUnsubscribeUrl: 'javascript:alert(1)' }))).rejects.toThrow(/http/);
    await expect(composeMessage(input({ listUnsubscribeUrl: 'https://x.test/u/a>b' }))).rejects.toThrow(ComposeError);
    await expect(composeMessage(input({ feedbackId: 'a b' }))).rejects.toThrow(/feedbackId/);
  });

  it('signs only with a DKIM domain aligned with From (same domain or a parent)', async () => {
    await expect(composeMessage(input({ from: { email: 'news@other.example' } }))).rejects.toThrow(/aligned/);
    await expect(composeMessage(input({ from: { email: 'news@evilmail.example.com' } }))).rejects.toThrow(/aligned/);
    const parent = input({
      dkim: { domainName: 'example.com', keySelector: SELECTOR, privateKey: keys.privateKeyPem },
    });
    await expect(composeMessage(parent)).resolves.toBeInstanceOf(Buffer);
  });

  it('fails loudly instead of sending unsigned mail when the key is unusable', async () => {
    await expect(
      composeMessage(input({ dkim: { domainName: DOMAIN, keySelector: SELECTOR, privateKey: 'not a key' } })),
    ).rejects.toThrow();
  });

  it('messageIdFor makes a distinct id per email on the sender domain, read back by emailIdInMessageId', () => {
    const id = newId();
    const a = messageIdFor({ id, fromEmail: 'news@Mail.Example.com' });
    expect(a).toBe(`<${id}@mail.example.com>`);
    expect(emailIdInMessageId(a)).toBe(id);
    expect(messageIdFor({ id: newId(), fromEmail: 'a@x.test' })).not.toBe(
      messageIdFor({ id: newId(), fromEmail: 'a@x.test' }),
    );
    expect(messageIdFor({ id, fromEmail: 'a@x.test', messageId: '<stored@x.test>' })).toBe('<stored@x.test>');
    expect(emailIdInMessageId('<stored@x.test>')).toBeNull();
  });
});
