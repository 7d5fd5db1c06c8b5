// What a stranger can make the inbound listener hold, store and compute is bounded: lists without bodies, text and
// HTML cut at 1 MB, header names stored as given, a project's storage capped, the bytes of messages in flight
// capped, sessions ended after too many commands, too long a DATA or too long a session, and DKIM checks limited to
// five signatures. Real SMTP clients to the real listener, a real DNS server, a real database.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import { startSmtpListener, type SmtpListener } from '../../../src/net/smtp-listener.ts';
import { bigMessage } from '../../support/big-message.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { smtpDialogue, type Dialogue } from '../../support/smtp-client.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };
const MB = 1024 * 1024;

/** A dialogue that has said EHLO, MAIL FROM and RCPT TO `to`, and is ready for DATA. */
async function envelope(
  port: number,
  to: string,
  from = 'someone@sender.test',
  address = '127.0.0.1',
): Promise<Dialogue> {
  const s = await smtpDialogue(port, address);
  expect(await s.send('EHLO client.test')).toMatch(/^250/);
  expect(await s.send(`MAIL FROM:<${from}>`)).toMatch(/^250/);
  expect(await s.send(`RCPT TO:<${to}>`)).toMatch(/^250/);
  return s;
}

const client = (port: number) =>
  nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });

describe('inbound mail: what a message can make Herald hold and store', () => {
  let m: MailFixture;
  let listener: SmtpListener;
  let auth: Auth;

  beforeAll(async () => {
    m = await startMailFixture();
    auth = (await m.receivingDomain('limits.test')).auth;
    listener = await startInboundReceiver(m.t.ctx, 0);
  });
  afterAll(async () => {
    await listener.close();
    await m.close();
  });

  const get = (url: string) => m.t.app.inject({ method: 'GET', url, headers: auth });

  it(
    "lists twenty large messages in a small answer, and cuts each one's text and HTML " +
      'at 1 MB (the raw message keeps all)',
    { timeout: 120_000 },
    async () => {
      const raws: Buffer[] = [];
      for (let i = 0; i < 20; i++) {
        const raw = bigMessage({
          bytes: 2.6 * MB,
          textBytes: 1.2 * MB,
          from: 'big@sender.test',
          to: 'desk@limits.test',
          subject: `Big ${i}`,
        });
        raws.push(raw);
        await client(listener.port).sendMail({ envelope: { from: 'big@sender.test', to: ['desk@limits.test'] }, raw });
      }
      const list = await get('/inbound?from=big@sender.test&limit=20');
      expect(list.statusCode).toBe(200);
      expect(list.json().data.items).toHaveLength(20);
      // Twenty messages of 2.6 MB each, and the list is a few kilobytes: no text, HTML or headers in it.
      expect(list.rawPayload.length).toBeLessThan(64 * 1024);
      const first = list.json().data.items.find((item: { subject: string }) => item.subject === 'Big 0');
      const detail = (await get(`/inbound/${first.id}`)).json().data;
      expect(detail.truncated).toEqual({ text: true, html: true });
      expect(Buffer.byteLength(detail.text)).toBeLessThanOrEqual(MB);
      expect(Buffer.byteLength(detail.text)).toBeGreaterThan(MB - 1024);
      expect(Buffer.byteLength(detail.html)).toBeLessThanOrEqual(MB);
      expect(detail.text.startsWith('Lorem ipsum')).toBe(true);
      const raw = await get(`/inbound/${first.id}/raw`);
      expect(raw.headers['content-length']).toBe(String(raws[0]!.length));
      expect(raw.rawPayload.equals(raws[0]!)).toBe(true);
    },
  );

  it(
    'stores header names as received, constructor and __proto__ included, without ' + 'touching any prototype',
    async () => {
      const raw =
        'From: proto@sender.test\r\nTo: desk@limits.test\r\nSubject: ' +
        'Prototypes\r\nconstructor: c\r\n__proto__: p\r\ntoString: t\r\n' +
        'hasOwnProperty: h\r\n__proto__: p2\r\n\r\nbody\r\n';
      await client(listener.port).sendMail({ envelope: { from: 'proto@sender.test', to: ['desk@limits.test'] }, raw });
      const id = (await get('/inbound?from=proto@sender.test')).json().data.items[0].id as string;
      const detail = await get(`/inbound/${id}`);
      const headers = JSON.parse(detail.body).data.headers as Record<string, string>;
      expect(Object.getOwnPropertyNames(headers)).toEqual(
        expect.arrayContaining(['constructor', '__proto__', 'tostring', 'hasownproperty', 'subject']),
      );
      expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toBe('p\np2');
      expect(headers.constructor).toBe('c');
      expect(headers.tostring).toBe('t');
      expect(detail.body).toContain('"__proto__":"p\\np2"');
      const [stored] = rowsOf<{ proto: string; ctor: string }>(
        await m.t.ctx.db.execute(
          sql`SELECT headers->>'__proto__' AS proto, headers->>'constructor' AS ctor FROM inbound_messages WHERE id =
          ${id}`,
        ),
      );
      expect(stored).toEqual({ proto: 'p\np2', ctor: 'c' });
      expect(({} as Record<string, unknown>).constructor).toBe(Object);
    },
  );

  it(
    'checks at most five DKIM signatures and ignores one whose l= leaves the body ' +
      'partly unsigned, while /healthz keeps answering',
    { timeout: 120_000 },
    async () => {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
      m.dns.setRecords('sel._domainkey.signer.test', [
        { type: 'TXT', data: [record.slice(0, 255), record.slice(255)] },
      ]);
      m.dns.setRecords('_dmarc.signer.test', [{ type: 'TXT', data: 'v=DMARC1; p=reject' }]);
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

      // Signed over its first 10 bytes only (l=10): a forger may append anything after them.
      const body = 'Pay invoice 1 to the usual account.\r\n';
      const message = `From: boss@signer.test\r\nTo: desk@limits.test\r\nSubject: Partly signed\r\n\r\n` + `${body}`;
      const key = { signingDomain: 'signer.test', selector: 'sel', privateKey: pem };
      const partial = await dkimSign(message, { ...key, signatureData: [{ ...key, maxBodyLength: 10 }] });
      await client(listener.port).sendMail({
        envelope: { from: 'boss@signer.test', to: ['desk@limits.test'] },
        raw: partial.signatures + message,
      });
      const partlySigned = (await get('/inbound?from=boss@signer.test')).json().data.items[0];
      expect(partlySigned.authentication.dkim).not.toBe('pass');
      const wholeMessage = message.replace('Partly signed', 'Wholly signed');
      const whole = await dkimSign(wholeMessage, { ...key, signatureData: [key] });
      await client(listener.port).sendMail({
        envelope: { from: 'boss@signer.test', to: ['desk@limits.test'] },
        raw: whole.signatures + wholeMessage,
      });
      const wholly = (await get('/inbound?from=boss@signer.test')).json().data.items[0];
      expect(wholly, JSON.stringify(wholly)).toMatchObject({
        subject: 'Wholly signed',
        authentication: { dkim: 'pass', dmarc: 'pass' },
      });

      // 500 signatures with distinct selectors and l= over a 5 MB body, each with the right body hash: every one would
      // cost a pass over the body and a DNS lookup. (The lines have no trailing or doubled spaces, so the relaxed
      // canonical body is the body as written.)
      const line = Array.from({ length: 24 }, () => 'All work and no play makes Jack a dull boy.').join(' ');
      const big = `${line}\r\n`.repeat(5 * 1024);
      const bodyHash = (length: number) => createHash('sha256').update(big.slice(0, length)).digest('base64');
      const signatures = Array.from(
        { length: 500 },
        (_, i) =>
          `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=flood.test; ` +
          `s=s${i}; l=${1000 + i}; h=from:to:subject; bh=${bodyHash(1000 + i)}; ` +
          `b=${'B'.repeat(342)}==\r\n`,
      ).join('');
      m.dns.resetQueries();
      let answers = 0;
      let probing = true;
      const probe = (async () => {
        while (probing) {
          expect((await m.t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
          answers += 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await client(listener.port).sendMail({
        envelope: { from: 'flood@flood.test', to: ['desk@limits.test'] },
        raw: `${signatures}From: flood@flood.test\r\nTo: desk@limits.test\r\nSubject: Flood\r\n\r\n${big}`,
      });
      probing = false;
      await probe;
      const flood = (await get('/inbound?from=flood@flood.test')).json().data.items[0];
      expect(flood.authentication.dkim).not.toBe('pass');
      const keyLookups = m.dns.queries.filter((q) => q.name.endsWith('._domainkey.flood.test')).map((q) => q.name);
      expect(new Set(keyLookups)).toEqual(
        new Set([
          's0._domainkey.flood.test',
          's1._domainkey.flood.test',
          's2._domainkey.flood.test',
          's3._domainkey.flood.test',
          's4._domainkey.flood.test',
        ]),
      );
      expect(answers).toBeGreaterThan(10);
    },
  );
});

describe('inbound mail: bounds on storage, on bytes in flight and on sessions', () => {
  let m: MailFixture;
  let first: Auth;
  let firstDomainId: string;

  beforeAll(async () => {
    m = await startMailFixture({ env: { INBOUND_MAX_STORED_MB: '1' } });
    const full = await m.receivingDomain('full.test');
    first = full.auth;
    firstDomainId = full.domainId;
    await m.receivingDomain('roomy.test');
    await m.receivingDomain('talk.test');
  });
  afterAll(async () => {
    await m.close();
  });

  it(
    'refuses RCPT with 452 4.3.1 for a project whose stored mail reached ' +
      'INBOUND_MAX_STORED_MB, and takes mail again once there is room',
    async () => {
      const listener = await startInboundReceiver(m.t.ctx, 0);
      try {
        const send = (to: string) =>
          client(listener.port).sendMail({
            envelope: { from: 'fill@sender.test', to: [to] },
            raw: bigMessage({ bytes: 200 * 1024, textBytes: 1024, from: 'fill@sender.test', to }),
          });
        const stored = async () =>
          Number(
            rowsOf<{ bytes: string }>(
              await m.t.ctx.db.execute(sql`SELECT coalesce(sum(stored_bytes), 0) AS bytes FROM inbound_messages m
        JOIN domains d ON d.project_id = m.project_id WHERE d.id = ${firstDomainId} AND m.expired_at IS NULL`),
            )[0]!.bytes,
          );
        let accepted = 0;
        while (accepted < 20) {
          const before = await stored();
          const refused = await send(`n${accepted}@full.test`).then(
            () => null,
            (error: { responseCode: number; response: string }) => error,
          );
          if (refused) {
            expect(refused).toMatchObject({
              responseCode: 452,
              response: expect.stringMatching(/^452 4\.3\.1 .*full\.test/),
            });
            expect(before).toBeGreaterThanOrEqual(MB);
            break;
          }
          expect(before).toBeLessThan(MB);
          accepted += 1;
        }
        expect(accepted).toBeGreaterThan(1);
        // Another project's domain is not affected.
        await send('x@roomy.test');
        const items = (await m.t.app.inject({ method: 'GET', url: '/inbound', headers: first })).json().data.items as {
          id: string;
        }[];
        expect(items).toHaveLength(accepted);
        expect(
          (await m.t.app.inject({ method: 'DELETE', url: `/inbound/${items[0]!.id}`, headers: first })).statusCode,
        ).toBe(200);
        await send('again@full.test');
        expect((await m.t.app.inject({ method: 'GET', url: '/inbound', headers: first })).json().data.total).toBe(
          accepted,
        );
      } finally {
        await listener.close();
      }
    },
  );

  it(
    'answers 451 4.3.1 to a message that does not fit in the bytes in flight, and ' + 'takes it once the others are in',
    async () => {
      const listener = await startInboundReceiver(m.t.ctx, 0, { inFlightBytes: 256 * 1024 });
      try {
        const held = await envelope(listener.port, 'held@talk.test', 'held@sender.test');
        expect(await held.send('DATA')).toMatch(/^354/);
        held
          .write(
            `From: held@sender.test\r\nTo: held@talk.test\r\nSubject: Held\r\n\r\n` +
              `${'x'.repeat(76).concat('\r\n').repeat(2600)}`,
          )
          .catch(() => {});
        await until(() => listener.bytesInFlight() > 190 * 1024, 'the first message to be held');
        const raw =
          `From: late@sender.test\r\nTo: late@talk.test\r\nSubject: Late\r\n\r\n` +
          `${'y'.repeat(76).concat('\r\n').repeat(1300)}`;
        await expect(
          client(listener.port).sendMail({ envelope: { from: 'late@sender.test', to: ['late@talk.test'] }, raw }),
        ).rejects.toMatchObject({ responseCode: 451, response: expect.stringMatching(/^451 4\.3\.1 /) });
        expect(await held.write('\r\n.\r\n')).toMatch(/^250 /);
        await held.close();
        expect(listener.bytesInFlight()).toBe(0);
        expect(
          (
            await client(listener.port).sendMail({
              envelope: { from: 'late@sender.test', to: ['late@talk.test'] },
              raw,
            })
          ).response,
        ).toMatch(/^250 /);
      } finally {
        await listener.close();
      }
    },
  );

  it('closes a session after 50 commands without a message (421), counting afresh after each message', async () => {
    const listener = await startInboundReceiver(m.t.ctx, 0);
    try {
      const s = await smtpDialogue(listener.port);
      expect(await s.send('EHLO chatty.test')).toMatch(/^250/);
      for (let i = 0; i < 40; i++) expect(await s.send('NOOP')).toMatch(/^250/);
      expect(await s.send('MAIL FROM:<chatty@sender.test>')).toMatch(/^250/);
      // recipients are not chatter
      for (let i = 0; i < 60; i++) expect(await s.send(`RCPT TO:<r${i}@talk.test>`)).toMatch(/^250/);
      expect(await s.send('DATA')).toMatch(/^354/);
      expect(await s.write('From: chatty@sender.test\r\nSubject: Between the chatter\r\n\r\nhi\r\n.\r\n')).toMatch(
        /^250 /,
      );
      for (let i = 0; i < 50; i++) expect(await s.send(i % 2 ? 'NOOP' : 'RSET')).toMatch(/^250/);
      expect(await s.send('NOOP')).toMatch(/^421 4\.7\.0 .*commands/);
      await s.closed;
    } finally {
      await listener.close();
    }
  });

  it(
    'frees its slots from clients that only talk: a full listener takes mail again ' + 'once they are cut off',
    async () => {
      // The listener itself, with a mailbox that takes anything: four slots, one per address.
      const full = await startSmtpListener({
        name: 'full',
        host: '127.0.0.1',
        port: 0,
        maxClients: 4,
        maxClientsPerAddress: 1,
        logger: m.t.ctx.logger,
        mailboxes: [{ name: 'all', maxBytes: MB, accepts: async () => true, deliver: async () => {} }],
      });
      try {
        const talkers = await Promise.all(
          ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((address) => smtpDialogue(full.port, address)),
        );
        const shutOut = await smtpDialogue(full.port, '127.0.0.6');
        expect(shutOut.greeting).toMatch(/^421 /);
        await shutOut.closed;
        await Promise.all(
          talkers.map(async (t) => {
            for (;;) {
              const reply = await t.send('NOOP');
              if (!reply.startsWith('250')) return expect(reply).toMatch(/^421 4\.7\.0 /);
            }
          }),
        );
        await Promise.all(talkers.map((t) => t.closed));
        expect(
          (
            await client(full.port).sendMail({
              envelope: { from: 'a@sender.test', to: ['b@anywhere.test'] },
              raw: 'Subject: in\r\n\r\nin\r\n',
            })
          ).response,
        ).toMatch(/^250 /);
      } finally {
        await full.close();
      }
    },
  );

  it(
    'ends a DATA phase that takes too long and a session that lasts too long with 421 ' + '4.4.2, storing nothing',
    async () => {
      const listener = await startInboundReceiver(m.t.ctx, 0, {
        sessionLimits: { maxSessionMs: 1500, maxCommandsWithoutMessage: 50, maxDataMs: 500 },
      });
      try {
        const trickle = await envelope(listener.port, 'slow@talk.test', 'trickle@sender.test');
        expect(await trickle.send('DATA')).toMatch(/^354/);
        expect(await trickle.write('From: trickle@sender.test\r\nSubject: Slow\r\n\r\nA')).toMatch(/^421 4\.4\.2 /);
        await trickle.closed;
        expect(listener.bytesInFlight()).toBe(0);

        const lingering = await smtpDialogue(listener.port);
        expect(await lingering.send('EHLO slow.test')).toMatch(/^250/);
        let reply = '';
        while (!reply.startsWith('421')) {
          reply = await lingering.send('NOOP');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(reply).toMatch(/^421 4\.4\.2 .*Session time limit/);
        await lingering.closed;
        expect(
          (await m.t.app.inject({ method: 'GET', url: '/inbound?from=trickle@sender.test', headers: first })).json()
            .data.total,
        ).toBe(0);
      } finally {
        await listener.close();
      }
    },
  );
});
