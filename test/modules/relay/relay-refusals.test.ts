// Every refusal of the relay, over a raw SMTP connection: AUTH rules and the lock-out, MAIL before AUTH, the From
// check at the end of DATA, 50 recipients, the size limit, malformed messages and commands.
// A refused message leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { plain, smtpDialogue, type Dialogue } from '../../support/smtp-client.ts';

describe('SMTP submission relay refusals', () => {
  let m: MailFixture;
  let relay: SubmissionRelay;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let emailsBefore: number;

  const countEmails = async () =>
    (await m.t.app.inject({ method: 'GET', url: '/emails', headers: sender.auth })).json().data.total as number;

  /** A connection from `address` that has said EHLO and authenticated with `key`. */
  async function session(key = sender.project.secretKey, address = '127.0.0.1'): Promise<Dialogue> {
    const s = await smtpDialogue(relay.port, address);
    expect(await s.send('EHLO app.test')).toMatch(/^250/);
    expect(await s.send(`AUTH PLAIN ${plain(key)}`)).toMatch(/^235/);
    return s;
  }

  async function data(s: Dialogue, message: string | Buffer, to = ['rcpt@dest.test']): Promise<string> {
    expect(await s.send('MAIL FROM:<app@example.test>')).toMatch(/^250/);
    for (const r of to) expect(await s.send(`RCPT TO:<${r}>`)).toMatch(/^250/);
    expect(await s.send('DATA')).toMatch(/^354/);
    return s.write(
      Buffer.concat([Buffer.isBuffer(message) ? message : Buffer.from(message, 'latin1'), Buffer.from('\r\n.\r\n')]),
    );
  }

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('example.test');
    relay = await startSubmissionRelay(m.t.ctx, 0);
    emailsBefore = await countEmails();
  });
  afterAll(async () => {
    await relay.close();
    await m.close();
  });

  it(
    'refuses MAIL before AUTH with 530 5.7.0, and wrong, public, revoked keys and a ' +
      'disabled project with 535 5.7.8',
    async () => {
      const s = await smtpDialogue(relay.port);
      expect(s.greeting).toMatch(/^220 /);
      const ehlo = await s.send('EHLO app.test');
      expect(ehlo).toMatch(/AUTH PLAIN LOGIN/);
      expect(ehlo).toMatch(/SIZE 20971520/);
      expect(ehlo).not.toMatch(/STARTTLS|SMTPUTF8/); // no certificate configured
      expect(await s.send('MAIL FROM:<app@example.test>')).toMatch(/^530 5\.7\.0 /);
      expect(await s.send(`AUTH PLAIN ${plain('sk_not-a-real-key')}`)).toMatch(/^535 5\.7\.8 /);
      expect(await s.send(`AUTH PLAIN ${plain(sender.project.publicKey)}`)).toMatch(/^535 5\.7\.8 .*public keys/);
      await s.close();

      const other = await m.t.createProject();
      const created = await m.t.app.inject({
        method: 'POST',
        url: `/admin/projects/${other.id}/keys`,
        headers: m.t.admin,
        payload: { type: 'secret' },
      });
      const { id, key } = created.json().data as { id: string; key: string };
      await m.t.app.inject({ method: 'DELETE', url: `/admin/projects/${other.id}/keys/${id}`, headers: m.t.admin });
      const disabled = await m.t.createProject();
      await m.t.app.inject({
        method: 'PATCH',
        url: `/admin/projects/${disabled.id}`,
        headers: m.t.admin,
        payload: { disabled: true },
      });
      const t = await smtpDialogue(relay.port, '127.0.0.2');
      await t.send('EHLO app.test');
      expect(await t.send(`AUTH PLAIN ${plain(key)}`)).toMatch(/^535 5\.7\.8 /);
      expect(await t.send(`AUTH PLAIN ${plain(disabled.secretKey)}`)).toMatch(/^535 5\.7\.8 .*disabled/);
      // AUTH LOGIN works as well as PLAIN.
      expect(await t.send('AUTH LOGIN')).toMatch(/^334/);
      expect(await t.send(Buffer.from('herald').toString('base64'))).toMatch(/^334/);
      expect(await t.send(Buffer.from(sender.project.secretKey).toString('base64'))).toMatch(/^235/);
      await t.close();
    },
  );

  it(
    'shuts an address out for a minute with 421 4.7.0 after five failed AUTHs; other ' + 'addresses still get in',
    async () => {
      const s = await smtpDialogue(relay.port, '127.0.0.3');
      await s.send('EHLO app.test');
      for (let i = 0; i < 4; i++) expect(await s.send(`AUTH PLAIN ${plain(`sk_wrong${i}`)}`)).toMatch(/^535 5\.7\.8 /);
      expect(await s.send(`AUTH PLAIN ${plain('sk_wrong5')}`)).toMatch(/^421 4\.7\.0 /);
      await s.closed; // a 421 ends the connection
      const again = await smtpDialogue(relay.port, '127.0.0.3');
      expect(again.greeting).toMatch(/^421 4\.7\.0 /);
      await again.close();
      (await session(sender.project.secretKey, '127.0.0.4')).close();
    },
  );

  it(
    'checks the header From at the end of DATA (550 5.7.1 naming the domain); MAIL ' +
      'FROM on another domain is ignored',
    async () => {
      const s = await session();
      expect(await data(s, 'From: someone@other.test\r\nTo: rcpt@dest.test\r\nSubject: x\r\n\r\nhi')).toMatch(
        /^550 5\.7\.1 .*other\.test/,
      );
      expect(await data(s, 'From: "Other" <a@example.test>\r\nTo: rcpt@dest.test\r\nSubject: x\r\n\r\nhi')).toMatch(
        /^250 2\.0\.0 Ok: queued as [0-9a-f-]{36}$/,
      );
      await s.close();
      emailsBefore += 1;
    },
  );

  it(
    'answers the 51st RCPT with 452 4.5.3, a message over 20 MB with 552 5.3.4, and ' + 'queues nothing for either',
    async () => {
      const s = await session();
      expect(await s.send('MAIL FROM:<app@example.test>')).toMatch(/^250/);
      for (let i = 1; i <= 50; i++) expect(await s.send(`RCPT TO:<r${i}@dest.test>`)).toMatch(/^250/);
      expect(await s.send('RCPT TO:<r51@dest.test>')).toMatch(/^452 4\.5\.3 /);
      expect(await s.send('RSET')).toMatch(/^250/);
      const big = Buffer.alloc(30 * 1024 * 1024, 'a');
      for (let i = 998; i < big.length; i += 1000) big.write('\r\n', i - 2);
      expect(await data(s, Buffer.concat([Buffer.from('From: a@example.test\r\nSubject: big\r\n\r\n'), big]))).toMatch(
        /^552 5\.3\.4 /,
      );
      // A size declared on MAIL FROM is refused by smtp-server before Herald sees the command, without an enhanced
      // code.
      expect(await s.send('MAIL FROM:<app@example.test> SIZE=31457280')).toBe(
        '552 Error: message exceeds fixed maximum message size 20971520',
      );
      expect(await s.send('MAIL FROM:<app@example.test> SIZE=20971520')).toMatch(/^250/);
      expect(await s.send('RSET')).toMatch(/^250/);
      expect(await s.send('NOOP')).toMatch(/^250/); // still serving
      await s.close();
      expect(await countEmails()).toBe(emailsBefore);
    },
  );

  it('refuses broken messages and garbage with SMTP errors, and keeps serving', async () => {
    const s = await session();
    expect(await data(s, 'From: a@example.test\r\nSubject: nul\r\n\r\nbody \0 here')).toMatch(/^554 5\.6\.0 .*NUL/);
    expect(await data(s, 'From: a@example.test\r\nSubject: Gr\xfc\xdfe\r\n\r\nbody')).toMatch(/^554 5\.6\.7 /);
    expect(await data(s, 'Subject: no from\r\n\r\nbody')).toMatch(/^554 5\.6\.0 .*no From/);
    expect(await data(s, 'From: a@example.test\r\nFrom: b@example.test\r\n\r\nbody')).toMatch(/^554 5\.6\.0 /);
    expect(await data(s, 'this is not a header\r\nFrom: a@example.test\r\n\r\nbody')).toMatch(
      /^554 5\.6\.0 .*Malformed/,
    );
    expect(await data(s, 'From: a@example.test, b@example.test\r\n\r\nbody')).toMatch(/^550 5\.1\.7 /);
    expect(await s.send('HELLO?? \x01\x02')).toMatch(/^5\d\d /);
    expect(await s.send('NOOP')).toMatch(/^250/);
    await s.close();
    expect(await countEmails()).toBe(emailsBefore);
  });
});
