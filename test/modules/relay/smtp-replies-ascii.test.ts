// Every SMTP reply of the relay and the inbound listener is printable ASCII, whatever the text it carries (a
// refusal naming a non-ASCII address, a service error's message): real sessions over raw sockets, each reply read
// byte by byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { plain, smtpDialogue, type Dialogue } from '../../support/smtp-client.ts';

/** A reply read as bytes (latin1): each byte one character, so a UTF-8 "…" shows as three non-ASCII ones. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+(\n[\x20-\x7e]+)*$/;

describe('SMTP reply text', () => {
  let m: MailFixture;
  let relay: SubmissionRelay;
  let inbound: SmtpListener;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  const replies: string[] = [];

  /** Sends a line and keeps the reply for the scan. */
  async function say(s: Dialogue, line: string | Buffer): Promise<string> {
    const reply = typeof line === 'string' ? await s.send(line) : await s.write(line);
    replies.push(reply);
    return reply;
  }

  beforeAll(async () => {
    m = await startMailFixture({ env: { INBOUND_SMTP_PORT: '0' } });
    sender = await m.receivingDomain('ascii.test');
    relay = await startSubmissionRelay(m.t.ctx, 0);
    inbound = await startInboundReceiver(m.t.ctx, 0);
  });
  afterAll(async () => {
    await inbound.close();
    await relay.close();
    await m.close();
  });

  it("keeps the relay's replies ASCII: refusals, service errors and acceptances", async () => {
    const s = await smtpDialogue(relay.port);
    replies.push(s.greeting);
    await say(s, 'EHLO app.test');
    // The refusal that once carried a UTF-8 ellipsis.
    expect(await say(s, 'MAIL FROM:<app@ascii.test>')).toMatch(/^530 5\.7\.0 .*\(sk_\.\.\.\)/);
    expect(await say(s, `AUTH PLAIN ${plain('sk_not-a-real-key')}`)).toMatch(/^535 5\.7\.8 .*\(sk_\.\.\.\)/);
    expect(await say(s, `AUTH PLAIN ${plain(sender.project.secretKey)}`)).toMatch(/^235/);
    expect(await say(s, 'MAIL FROM:<app@ascii.test>')).toMatch(/^250/);
    expect(await say(s, 'RCPT TO:<not an address>')).toMatch(/^5/);
    expect(await say(s, 'RCPT TO:<rcpt@dest.test>')).toMatch(/^250/);
    expect(await say(s, 'DATA')).toMatch(/^354/);
    const foreign = Buffer.from(
      'From: =?UTF-8?Q?Zo=C3=AB?= <zoe@elsewhere.test>\r\nTo: rcpt@dest.test\r\nSubject: x\r\n\r\nhi\r\n.\r\n',
    );
    expect(await say(s, foreign)).toMatch(/^550 5\.7\.1 .*elsewhere\.test/);
    expect(await say(s, 'MAIL FROM:<app@ascii.test>')).toMatch(/^250/);
    expect(await say(s, 'RCPT TO:<rcpt@dest.test>')).toMatch(/^250/);
    expect(await say(s, 'DATA')).toMatch(/^354/);
    const good = Buffer.from('From: "Quotes" <a@ascii.test>\r\nTo: rcpt@dest.test\r\nSubject: x\r\n\r\nhi\r\n.\r\n');
    expect(await say(s, good)).toMatch(/^250 2\.0\.0 /);
    expect(await say(s, 'MAIL FROM:<app@ascii.test>')).toMatch(/^250/);
    expect(await say(s, 'RCPT TO:<rcpt@dest.test>')).toMatch(/^250/);
    expect(await say(s, 'DATA')).toMatch(/^354/);
    // Raw UTF-8 in a header: refused, in ASCII (the session ends with it).
    const raw = Buffer.from('From: Zoë <zoë@élan.test>\r\nTo: rcpt@dest.test\r\nSubject: x\r\n\r\nhi\r\n.\r\n');
    expect(await say(s, raw)).toMatch(/^554 5\.6\.7 /);
    await s.close();
    for (const reply of replies) expect(reply).toMatch(PRINTABLE_ASCII);
  });

  it("keeps the inbound listener's replies ASCII", async () => {
    const s = await smtpDialogue(inbound.port);
    const seen = [s.greeting];
    const send = async (line: string) => {
      const reply = await s.send(line);
      seen.push(reply);
      return reply;
    };
    await send('EHLO mx.sender.test');
    expect(await send('MAIL FROM:<ann@sender.test>')).toMatch(/^250/);
    expect(await send('RCPT TO:<nobody@nowhere.test>')).toMatch(/^550 5\.1\.1 /);
    expect(await send('RCPT TO:<help@ascii.test>')).toMatch(/^250/);
    expect(await send('DATA')).toMatch(/^354/);
    seen.push(await s.write('From: ann@sender.test\r\nTo: help@ascii.test\r\nSubject: é\r\n\r\nhi\r\n.\r\n'));
    expect(seen.at(-1)).toMatch(/^250/);
    await s.close();
    for (const reply of seen) expect(reply).toMatch(PRINTABLE_ASCII);
  });
});
