import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { authenticate } from 'mailauth';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailComposerOptions } from 'nodemailer/lib/mail-composer';
import DKIM from 'nodemailer/lib/dkim';
import RelaxedBody from 'nodemailer/lib/dkim/relaxed-body';
import LeWindows from 'nodemailer/lib/mime-node/le-windows';
import { buildMessageSync, dkimSignSync, relaxedBodyHash, toCrlf } from './compose-sync.ts';
import { DKIM_SIGNED_HEADERS } from './compose.ts';
import { dkimTxtValue, splitTxtValue } from './dkim-keys.ts';

const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const DOMAIN = 'sync.example.test';
const FIELDS = DKIM_SIGNED_HEADERS.join(':');
/** How the verifier saw the message arrive. */
const RECEIVED_FROM = { ip: '127.0.0.1', helo: 'localhost', sender: `news@${DOMAIN}`, mta: 'mx.test' };

const base: MailComposerOptions = {
  from: { name: 'Sénder, Ltd.', address: `news@${DOMAIN}` },
  to: [{ name: '', address: 'reader@example.com' }],
  subject: 'Plain subject',
  messageId: `<1@${DOMAIN}>`,
  date: new Date('2026-11-29T10:00:00Z'),
  baseBoundary: 'b0a1c2',
  disableFileAccess: true,
  disableUrlAccess: true,
  newline: 'win',
};

/** Messages that take every path of the MIME tree and of both transfer encodings. */
const CASES: Record<string, MailComposerOptions> = {
  'text only, ASCII': { ...base, text: 'Hello\nthere' },
  'html only': { ...base, html: '<p>Hi</p>' },
  'text and html, UTF-8 and emoji, long lines': {
    ...base,
    subject: 'Grüße ✓ — a subject long enough to be folded over more than one line of the header block 😀',
    text: `Grüße\n\n${'long line '.repeat(30)}\ntrailing spaces   \n\ttab\n`,
    html: `<h1>Grüße 😀</h1>${'<p>This month: <a href="https://example.com/a?x=1&amp;y=2">more</a></p>\n'.repeat(40)}`,
  },
  'bare CR and LF, dots at line starts, no final newline': {
    ...base,
    text: 'one\rtwo\nthree\r\n.four\n..five\n\n\n',
    html: '<p>x</p>\n.\n<p>y</p>',
  },
  'attachments: text, binary, inline image, UTF-8 name': {
    ...base,
    text: 'See attached.',
    html: '<p><img src="cid:logo@x"></p>',
    attachments: [
      { filename: 'notes.txt', content: Buffer.from('hello world '.repeat(200)) },
      { filename: 'Über daten.bin', content: crypto.createHash('sha512').update('seed').digest() },
      { filename: 'logo.png', cid: 'logo@x', contentDisposition: 'inline', content: Buffer.alloc(5000, 0x89) },
    ],
  },
  'headers: prepared, several recipients, reply-to and cc': {
    ...base,
    to: [
      { name: 'Ada Lovelace', address: 'ada@example.com' },
      { name: 'Bob "the" Builder', address: 'bob@example.org' },
    ],
    cc: [{ name: '', address: 'cc@example.net' }],
    replyTo: [{ name: '', address: 'replies@example.com' }],
    headers: {
      'List-Unsubscribe': { prepared: true, value: '<https://herald.test/unsubscribe/abc?s=1>' },
      'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
      'X-Entity-Ref-ID': 'ref-1',
    },
    text: 'Hi',
    html: '<p>Hi</p>',
  },
  'empty body': { ...base, text: '' },
  'internationalised addresses (SMTPUTF8 local part, IDN domain)': {
    ...base,
    from: { name: 'Bücher', address: 'news@bücher.example' },
    to: [{ name: '', address: 'jöhn@example.org' }],
    text: 'Hallo',
  },
};

/** What nodemailer's own streams give for the same message: MailComposer's build, then its DKIM signer. */
async function byStreams(options: MailComposerOptions): Promise<{ message: Buffer; signed: Buffer }> {
  const message = await new MailComposer(options).compile().build();
  const signer = new DKIM({ domainName: DOMAIN, keySelector: 'sel', privateKey, headerFieldNames: FIELDS });
  const chunks: Buffer[] = [];
  for await (const chunk of signer.sign(message)) chunks.push(Buffer.from(chunk as Buffer));
  return { message, signed: Buffer.concat(chunks) };
}

describe('nodemailer composition and DKIM signing, run synchronously', () => {
  for (const [name, options] of Object.entries(CASES)) {
    it(`gives the bytes nodemailer's streams give: ${name}`, async () => {
      const expected = await byStreams(options);
      const message = buildMessageSync(new MailComposer(options).compile());
      expect(message.toString('latin1')).toBe(expected.message.toString('latin1'));
      const signed = dkimSignSync(message, {
        domainName: DOMAIN,
        keySelector: 'sel',
        privateKey,
        headerFieldNames: FIELDS,
      });
      expect(signed?.toString('latin1')).toBe(expected.signed.toString('latin1'));
    });
  }

  it('signs so that a verifier finds the signature valid, for every case', async () => {
    const record = dkimTxtValue(publicKey.export({ type: 'spki', format: 'der' }).toString('base64'));
    const resolver = async (name: string, type: string): Promise<string[][]> => {
      if (type === 'TXT' && name === `sel._domainkey.${DOMAIN}`) return [splitTxtValue(record)];
      throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
    };
    for (const options of Object.values(CASES)) {
      const message = buildMessageSync(new MailComposer(options).compile());
      const signed = dkimSignSync(message, {
        domainName: DOMAIN,
        keySelector: 'sel',
        privateKey,
        headerFieldNames: FIELDS,
      });
      const { dkim } = await authenticate(signed!, { resolver, ...RECEIVED_FROM, disableArc: true, disableBimi: true });
      expect(dkim?.results.map((r) => r.status.result)).toEqual(['pass']);
    }
  });

  it('refuses content it cannot hold in memory (a stream) rather than leaving a part out', () => {
    const root = new MailComposer({ ...base, text: Readable.from(['x']) }).compile();
    expect(() => buildMessageSync(root)).toThrow(/string or buffer/);
  });

  it('says so when the key cannot sign, instead of a message without a signature', () => {
    const { privateKey: dsa } = crypto.generateKeyPairSync('ed25519');
    const message = buildMessageSync(new MailComposer({ ...base, text: 'x' }).compile());
    expect(
      dkimSignSync(message, { domainName: DOMAIN, keySelector: 'sel', privateKey: dsa, headerFieldNames: FIELDS }),
    ).toBe(null);
  });
});

describe('the line-end and relaxed-body passes, against the nodemailer transforms they stand for', () => {
  /** The output of one of nodemailer's transform streams for `input` written in one chunk. */
  async function throughStream(stream: NodeJS.ReadWriteStream, input: Buffer): Promise<Buffer> {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise((resolve) => stream.on('end', resolve));
    stream.end(input);
    await done;
    return Buffer.concat(chunks);
  }

  async function nodemailerHash(body: Buffer): Promise<string> {
    const relaxed = new RelaxedBody({ hashAlgo: 'sha256' });
    const hash = new Promise<string>((resolve) => relaxed.once('hash', resolve));
    await throughStream(relaxed, body);
    return hash;
  }

  // Bodies made of the pieces the canonicalisation treats specially, in random order and number (a fixed seed, so a
  // failure repeats), plus the edges by name.
  const PIECES = ['a', 'bc', ' ', '  ', '\t', ' \t ', '\r\n', '\r\n\r\n', '\n', '\r', '=', '.', 'é'];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const bodies = [
    '',
    '\r\n',
    '\r\n\r\n\r\n',
    '   \r\n',
    'a',
    'a ',
    'a\r\n\r\n',
    '  lead and trail  \r\n\t\r\nmid  \t run\r\n  \r\n',
    ...Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 30) }, () => PIECES[Math.floor(random() * PIECES.length)]).join(
        '',
      ),
    ),
  ].map((body) => Buffer.from(body, 'latin1'));

  it('hashes every body as RelaxedBody does', async () => {
    for (const body of bodies)
      expect(relaxedBodyHash(body), JSON.stringify(body.toString('latin1'))).toBe(await nodemailerHash(body));
  });

  it('turns bare LFs into CRLF as LeWindows does, and leaves CRLF text as it is', async () => {
    for (const body of bodies)
      expect(toCrlf(body).equals(await throughStream(new LeWindows(), body)), JSON.stringify(body.toString())).toBe(
        true,
      );
    const crlf = Buffer.from('one\r\ntwo\r\n');
    expect(toCrlf(crlf)).toBe(crlf);
  });
});
