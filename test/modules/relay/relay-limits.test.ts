// The relay's limits that need settings of their own: the project's API rate limit (each accepted message is one
// request; past it 451 4.7.1, nothing queued) and the idle timeout that ends a slow-loris connection.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { plain, smtpDialogue } from '../../support/smtp-client.ts';

describe('SMTP submission relay limits', () => {
  let m: MailFixture;
  let relay: SubmissionRelay;

  beforeAll(async () => {
    m = await startMailFixture({ env: { RATE_LIMIT_PER_MINUTE: '3', SUBMISSION_SMTP_TIMEOUT_SECONDS: '1' } });
    relay = await startSubmissionRelay(m.t.ctx, 0);
  });
  afterAll(async () => {
    await relay.close();
    await m.close();
  });

  it("answers messages past the project's rate limit with 451 4.7.1 and queues only the accepted ones", async () => {
    const sender = await m.verifiedDomain('example.test'); // two requests of the project's three
    const s = await smtpDialogue(relay.port);
    await s.send('EHLO app.test');
    expect(await s.send(`AUTH PLAIN ${plain(sender.project.secretKey)}`)).toMatch(/^235/);
    const answers: string[] = [];
    // Six messages: even if a minute window ends meanwhile (three more), at least one is refused.
    for (let i = 0; i < 6; i++) {
      await s.send('MAIL FROM:<app@example.test>');
      await s.send(`RCPT TO:<r${i}@dest.test>`);
      await s.send('DATA');
      answers.push(await s.write(`From: a@example.test\r\nSubject: n${i}\r\n\r\nhi\r\n.\r\n`));
    }
    await s.close();
    const accepted = answers.filter((a) => /^250 2\.0\.0 Ok: queued as /.test(a));
    const refused = answers.filter((a) => /^451 4\.7\.1 /.test(a));
    expect(refused.length).toBeGreaterThan(0);
    expect(accepted.length + refused.length).toBe(6);
    const ids = accepted.map((a) => a.replace('250 2.0.0 Ok: queued as ', ''));
    const rows = rowsOf<{ id: string }>(
      await m.t.ctx.db.execute(sql`SELECT id FROM emails WHERE project_id = ${sender.project.id}`),
    );
    expect(rows.map((r) => r.id).sort()).toEqual(ids.sort());
  });

  it('closes a connection whose client stops talking (slow loris)', async () => {
    const idle = await smtpDialogue(relay.port);
    await idle.send('EHLO slow.test');
    await idle.send('MAIL FROM:<a@example.test>'); // then nothing
    await idle.closed;
    const fresh = await smtpDialogue(relay.port);
    expect(fresh.greeting).toMatch(/^220 /);
    await fresh.close();
  });
});
