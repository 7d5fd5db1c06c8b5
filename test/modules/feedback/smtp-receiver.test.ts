// Feedback in: real DSN and ARF messages sent by a real SMTP client to the receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startFeedbackReceiver, type FeedbackReceiver } from '../../../src/modules/feedback/index.ts';
import { createVerpToken } from '../../../src/mail/verp.ts';
import { APP_SECRET } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { arf, dsn, outOfOffice } from '../../support/reports.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('bounce and complaint receiver', () => {
  let m: MailFixture;
  let receiver: FeedbackReceiver;
  let auth: Auth;
  let otherAuth: Auth;

  beforeAll(async () => {
    m = await startMailFixture({ env: { RETURN_PATH_HOST: 'feedback.herald.test' } });
    auth = (await m.verifiedDomain('example.test')).auth;
    otherAuth = (await m.verifiedDomain('other.test')).auth;
    receiver = await startFeedbackReceiver(m.t.ctx, 0);
  });
  afterAll(async () => {
    await receiver.close();
    await m.close();
  });

  const client = () =>
    nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true });
  const report = (to: string, raw: string) =>
    client().sendMail({ envelope: { from: 'mailer-daemon@mx.dest.test', to: [to] }, raw });

  /** Sends one email and returns its id, its return path (the sink's MAIL FROM) and its contact. */
  async function sent(to: string, from = 'news@example.test', a: Auth = auth) {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: a,
      payload: { to, from, subject: 'Hi', body: '<p>Hi</p>', subscribed: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { email: id, contact } = res.json().data.emails[0] as { email: string; contact: { id: string } };
    await m.waitForStatus(a, id, ['SENT']);
    const message = m.sink.messages.find((msg) => msg.to.includes(to));
    return { id, contactId: contact.id, returnPath: message!.from };
  }
  const email = async (id: string, a: Auth = auth) =>
    (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: a })).json().data;
  const events = async (contactId: string, name: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/events?contactId=${contactId}&name=${name}`, headers: auth })).json()
      .data.total as number;
  const suppression = async (address: string) => {
    const list = (await m.t.app.inject({ method: 'GET', url: '/suppressions?limit=100', headers: auth })).json().data
      .items as { email: string; reason: string; emailId: string | null }[];
    return list.find((s) => s.email === address) ?? null;
  };

  it('sends every message with a VERP return path on bounces.<sender domain>', async () => {
    const { id, returnPath } = await sent('verp@dest.test');
    expect(returnPath).toBe(`bounces+${createVerpToken(APP_SECRET, id)}@bounces.example.test`);
  });

  it(
    'turns a 5.x.x DSN into BOUNCED, a suppression and email.bounced — once, however ' + 'often it is replayed',
    async () => {
      const workflow = await m.t.app.inject({
        method: 'POST',
        url: '/workflows',
        headers: auth,
        payload: {
          name: 'on bounce',
          enabled: true,
          trigger: { type: 'EVENT', event: 'email.bounced' },
          steps: [{ type: 'UPDATE_CONTACT', data: { bounced: true } }],
        },
      });
      expect(workflow.statusCode, workflow.body).toBe(201);
      const { id, contactId, returnPath } = await sent('gone@dest.test');
      const raw = dsn({ to: returnPath, recipient: 'gone@dest.test', status: '5.1.1' });
      await report(returnPath, raw);
      expect(await email(id)).toMatchObject({ status: 'BOUNCED', statusReason: '5.1.1' });
      expect(await suppression('gone@dest.test')).toMatchObject({ reason: 'BOUNCE', emailId: id });
      expect(await events(contactId, 'email.bounced')).toBe(1);
      await report(returnPath, raw);
      await report(returnPath, raw);
      expect(await events(contactId, 'email.bounced')).toBe(1);
      // Workflows see it too: the email.bounced event started the workflow for this contact.
      const tagged = async () =>
        (await m.t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: auth })).json().data.data
          .bounced === true;
      await until(tagged, 'the workflow to tag the contact');
    },
  );

  it('bounces both emails of one DSN addressed to two return paths — once, however often it is replayed', async () => {
    const first = await sent('first@dest.test');
    const second = await sent('second@dest.test');
    const raw = dsn({
      to: `${first.returnPath}, ${second.returnPath}`,
      recipient: ['first@dest.test', 'second@dest.test'],
      status: '5.1.1',
      id: 'dsn-two',
    });
    const twice = () =>
      client().sendMail({
        envelope: { from: 'mailer-daemon@mx.dest.test', to: [first.returnPath, second.returnPath] },
        raw,
      });
    const accepted = await twice();
    expect(accepted.accepted).toEqual([first.returnPath, second.returnPath]);
    for (const one of [first, second]) {
      expect(await email(one.id)).toMatchObject({ status: 'BOUNCED', statusReason: '5.1.1' });
      expect(await events(one.contactId, 'email.bounced')).toBe(1);
    }
    expect(await suppression('first@dest.test')).toMatchObject({ reason: 'BOUNCE', emailId: first.id });
    expect(await suppression('second@dest.test')).toMatchObject({ reason: 'BOUNCE', emailId: second.id });
    await twice();
    for (const one of [first, second]) expect(await events(one.contactId, 'email.bounced')).toBe(1);
  });

  it('records a 4.x.x DSN as email.deferred only', async () => {
    const { id, contactId, returnPath } = await sent('slow@dest.test');
    await report(returnPath, dsn({ to: returnPath, recipient: 'slow@dest.test', status: '4.2.2' }));
    expect((await email(id)).status).toBe('SENT');
    expect(await events(contactId, 'email.deferred')).toBe(1);
    expect(await suppression('slow@dest.test')).toBeNull();
  });

  it('does not suppress for a policy bounce (5.7.x)', async () => {
    const { id, returnPath } = await sent('policy@dest.test');
    await report(returnPath, dsn({ to: returnPath, recipient: 'policy@dest.test', status: '5.7.1' }));
    expect((await email(id)).status).toBe('BOUNCED');
    expect(await suppression('policy@dest.test')).toBeNull();
  });

  it(
    'turns an ARF abuse report into COMPLAINED, an unsubscribed contact, a COMPLAINT ' +
      'suppression and email.complained',
    async () => {
      const { id, contactId, returnPath } = await sent('angry@dest.test');
      await report(returnPath, arf({ to: returnPath, recipient: 'angry@dest.test' }));
      expect((await email(id)).status).toBe('COMPLAINED');
      const contact = (await m.t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: auth })).json()
        .data;
      expect(contact.subscribed).toBe(false);
      expect((await suppression('angry@dest.test'))?.reason).toBe('COMPLAINT');
      expect(await events(contactId, 'email.complained')).toBe(1);
      const segment = await m.t.app.inject({
        method: 'POST',
        url: '/segments',
        headers: auth,
        payload: { name: 'complainers', filter: { activity: 'complained', operator: 'performed' } },
      });
      expect(segment.json().data.memberCount).toBe(1);
    },
  );

  it('refuses unknown recipients at RCPT and forged tokens, and changes nothing', async () => {
    const { id } = await sent('target@dest.test');
    const forged = `bounces+${'a'.repeat(42)}@bounces.example.test`;
    await expect(
      report(forged, dsn({ to: forged, recipient: 'target@dest.test', status: '5.1.1' })),
    ).rejects.toMatchObject({ responseCode: 550 });
    await expect(report('postmaster@bounces.example.test', outOfOffice('x'))).rejects.toMatchObject({
      responseCode: 550,
    });
    expect((await email(id)).status).toBe('SENT');
  });

  it("ignores a report aimed at another project's email through a domain that did not send it", async () => {
    const theirs = await sent('someone@dest.test', 'news@other.test', otherAuth);
    const aimed = `bounces+${createVerpToken(APP_SECRET, theirs.id)}@bounces.example.test`;
    await report(aimed, dsn({ to: aimed, recipient: 'someone@dest.test', status: '5.1.1' }));
    expect((await email(theirs.id, otherAuth)).status).toBe('SENT');
  });

  it('accepts and drops what is not a report, and refuses oversize messages at DATA', async () => {
    const { id, returnPath } = await sent('away@dest.test');
    const before = receiver.dropped();
    await report(returnPath, outOfOffice(returnPath));
    expect(receiver.dropped()).toBe(before + 1);
    expect((await email(id)).status).toBe('SENT');
    const big = outOfOffice(returnPath) + `${'y'.repeat(998)}\r\n`.repeat(5300); // just over 5 MB
    await expect(report(returnPath, big)).rejects.toMatchObject({ responseCode: 552 });
  });
});
