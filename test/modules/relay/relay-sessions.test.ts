// A relay session answers to its key for every message, not only at AUTH: a key revoked or a project disabled
// mid-session stops it at the next MAIL FROM, and nothing more is queued. Sessions are bounded like every
// listener's (commands without a message), and so is what a message may hold (the header section, bytes in flight).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubmissionRelay, type SubmissionRelay } from '../../../src/modules/relay/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { plain, relayTransport, smtpDialogue, type Dialogue } from '../../support/smtp-client.ts';
import { until } from '../../support/until.ts';

describe('SMTP submission relay sessions', () => {
  let m: MailFixture;
  let relay: SubmissionRelay;

  beforeAll(async () => {
    m = await startMailFixture();
    relay = await startSubmissionRelay(m.t.ctx, 0, { inFlightBytes: 256 * 1024 });
  });
  afterAll(async () => {
    await relay.close();
    await m.close();
  });

  /** A project with a verified sender domain and a secret key of its own (its id, to revoke it). */
  async function sender(domain: string) {
    const { project, auth } = await m.verifiedDomain(domain);
    const created = (
      await m.t.app.inject({
        method: 'POST',
        url: `/admin/projects/${project.id}/keys`,
        headers: m.t.admin,
        payload: { type: 'secret' },
      })
    ).json().data;
    return { project, auth, key: created.key as string, keyId: created.id as string };
  }

  async function session(key: string, port = relay.port): Promise<Dialogue> {
    const s = await smtpDialogue(port);
    expect(await s.send('EHLO app.test')).toMatch(/^250/);
    expect(await s.send(`AUTH PLAIN ${plain(key)}`)).toMatch(/^235/);
    return s;
  }

  async function message(s: Dialogue, from: string, subject: string): Promise<string> {
    expect(await s.send(`MAIL FROM:<${from}>`)).toMatch(/^250/);
    expect(await s.send('RCPT TO:<reader@dest.test>')).toMatch(/^250/);
    expect(await s.send('DATA')).toMatch(/^354/);
    return s.write(`From: ${from}\r\nTo: reader@dest.test\r\nSubject: ${subject}\r\n\r\nHello\r\n.\r\n`);
  }

  const emails = async (auth: { authorization: string }) =>
    (await m.t.app.inject({ method: 'GET', url: '/emails', headers: auth })).json().data.total as number;

  it('refuses the next MAIL FROM with 535 5.7.8 and ends the session once its key is revoked', async () => {
    const app = await sender('revoked.test');
    const s = await session(app.key);
    expect(await message(s, 'app@revoked.test', 'Before')).toMatch(/^250 2\.0\.0 Ok: queued/);
    const revoked = await m.t.app.inject({
      method: 'DELETE',
      url: `/admin/projects/${app.project.id}/keys/${app.keyId}`,
      headers: m.t.admin,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await s.send('MAIL FROM:<app@revoked.test>')).toMatch(/^535 5\.7\.8 .*revoked/);
    await s.closed;
    expect(await emails(app.auth)).toBe(1);
  });

  it('refuses the next MAIL FROM with 421 4.7.0 and ends the session once its project is disabled', async () => {
    const app = await sender('disabled.test');
    const s = await session(app.key);
    expect(await message(s, 'app@disabled.test', 'Before')).toMatch(/^250 /);
    await m.t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${app.project.id}`,
      headers: m.t.admin,
      payload: { disabled: true },
    });
    expect(await s.send('MAIL FROM:<app@disabled.test>')).toMatch(/^421 4\.7\.0 .*disabled/);
    await s.closed;
    await m.t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${app.project.id}`,
      headers: m.t.admin,
      payload: { disabled: false },
    });
    expect(await emails(app.auth)).toBe(1);
  });

  it('closes a session after 50 commands without a message', async () => {
    const app = await sender('chatty.test');
    const s = await session(app.key);
    for (let i = 0; i < 48; i++) expect(await s.send('NOOP')).toMatch(/^250/);
    expect(await s.send('NOOP')).toMatch(/^421 4\.7\.0 .*commands/);
    await s.closed;
  });

  it(
    'refuses a message whose header section is over 1 MB (554 5.6.0), and one that ' +
      'does not fit the bytes in flight (451 4.3.1)',
    async () => {
      const app = await sender('heavy.test');
      const roomy = await startSubmissionRelay(m.t.ctx, 0);
      const s = await session(app.key, roomy.port);
      expect(await s.send('MAIL FROM:<app@heavy.test>')).toMatch(/^250/);
      expect(await s.send('RCPT TO:<reader@dest.test>')).toMatch(/^250/);
      expect(await s.send('DATA')).toMatch(/^354/);
      const headers = `X-Filler: ${'h'.repeat(70)}\r\n`.repeat(16_000);
      expect(await s.write(`From: app@heavy.test\r\n${headers}Subject: Heavy\r\n\r\nbody\r\n.\r\n`)).toMatch(
        /^554 5\.6\.0 .*header section/,
      );
      await s.close();
      await roomy.close();

      const held = await session(app.key);
      expect(await held.send('MAIL FROM:<app@heavy.test>')).toMatch(/^250/);
      expect(await held.send('RCPT TO:<reader@dest.test>')).toMatch(/^250/);
      expect(await held.send('DATA')).toMatch(/^354/);
      held
        .write(`From: app@heavy.test\r\nSubject: Held\r\n\r\n` + `${'x'.repeat(76).concat('\r\n').repeat(2600)}`)
        .catch(() => {});
      await until(() => relay.bytesInFlight() > 190 * 1024, 'the first message to be held');
      const late = relayTransport(relay.port, app.key);
      const raw =
        `From: app@heavy.test\r\nTo: reader@dest.test\r\nSubject: Late\r\n\r\n` +
        `${'y'.repeat(76).concat('\r\n').repeat(1300)}`;
      await expect(
        late.sendMail({ envelope: { from: 'app@heavy.test', to: ['reader@dest.test'] }, raw }),
      ).rejects.toMatchObject({ responseCode: 451, response: expect.stringMatching(/^451 4\.3\.1 /) });
      expect(await held.write('\r\n.\r\n')).toMatch(/^250 /);
      await held.close();
      expect(
        (await late.sendMail({ envelope: { from: 'app@heavy.test', to: ['reader@dest.test'] }, raw })).response,
      ).toMatch(/^250 /);
      expect(await emails(app.auth)).toBe(2); // the held and the late message; the heavy one left nothing
    },
  );
});
