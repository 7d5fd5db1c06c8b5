// SES notifications through SNS, verified as AWS documents it, against a signing certificate the
// test makes and serves over HTTPS (admitted by the test's configuration; the production rule stays strict).
// Herald runs with the SES transport against a local SES v2 look-alike, so every email here was handed to "SES"
// and got the MessageId its notifications quote — except the one sent through SMTP before the move to SES.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startFakeSes, type FakeSes } from '../../support/ses.ts';
import { startFakeSns, type FakeSns } from '../../support/sns.ts';
import { repoRoot } from '../../support/paths.ts';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:herald-feedback';
const THEIRS = 'arn:aws:sns:us-east-1:999999999999:theirs';
const HOUR = 3600_000;

type Auth = { authorization: string };
type Inject = TestApp['app']['inject'];

const snsEnv = (sns: FakeSns) => ({
  SES_SNS_CERT_HOSTS: sns.host,
  SES_SNS_CA_FILE: sns.caFile,
  SES_SNS_TOPIC_ARNS: TOPIC,
});
const postTo = (inject: Inject, body: unknown, options: { contentType?: string; remoteAddress?: string } = {}) =>
  inject({
    method: 'POST',
    url: '/feedback/ses',
    payload: JSON.stringify(body),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    headers: {
      'content-type': options.contentType ?? 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': String((body as { Type?: string }).Type),
    },
  });
/** A Notification of an SES event about the message SES knows as `sesId` and we sent with `messageId`. */
const sesEvent = (
  sns: FakeSns,
  type: string,
  ids: { messageId: string; sesId: string },
  extra: Record<string, unknown> = {},
  fields: { TopicArn?: string; Timestamp?: string; SigningCertURL?: string } = {},
) =>
  sns.sign({
    Type: 'Notification',
    TopicArn: TOPIC,
    ...fields,
    Message: JSON.stringify({
      notificationType: type,
      mail: { messageId: ids.sesId, commonHeaders: { messageId: ids.messageId } },
      ...extra,
    }),
  });

describe('POST /feedback/ses with the SES transport', () => {
  let sns: FakeSns;
  let ses: FakeSes;
  let database: TestDatabase;
  let m: MailFixture;
  let auth: Auth;
  /** An email of the same project, handed to SMTP before the installation moved to SES. */
  let earlier: { id: string; messageId: string; contactId: string };
  /** What POST /feedback/ses answered while the transport was SMTP. */
  let underSmtp: { statusCode: number; body: Record<string, unknown> };

  beforeAll(async () => {
    [sns, ses, database] = await Promise.all([startFakeSns(), startFakeSes(), createTestDatabase()]);
    const before = await startMailFixture({ database, env: snsEnv(sns) });
    const sender = await before.verifiedDomain('example.test');
    auth = sender.auth;
    const res = await before.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: {
        to: 'earlier@dest.test',
        from: 'news@example.test',
        subject: 'Hi',
        body: '<p>Hi</p>',
        subscribed: true,
      },
    });
    const id = res.json().data.emails[0].email as string;
    const email = await before.waitForStatus(auth, id, ['SENT']);
    earlier = { id, messageId: String(email.messageId), contactId: String(email.contactId) };
    const answer = await postTo(
      before.t.app.inject.bind(before.t.app),
      sesEvent(sns, 'Complaint', { messageId: earlier.messageId, sesId: 'x' }),
    );
    underSmtp = { statusCode: answer.statusCode, body: answer.json() };
    await before.close();
    // The same installation, restarted with the SES transport.
    m = await startMailFixture({ database, env: { ...ses.env, ...snsEnv(sns) } });
  });
  afterAll(async () => {
    await m.close();
    await database.drop();
    await Promise.all([sns.close(), ses.close()]);
  });

  const post = (body: unknown, contentType?: string) =>
    postTo(m.t.app.inject.bind(m.t.app), body, contentType ? { contentType } : {});
  async function sent(to: string) {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: { to, from: 'news@example.test', subject: 'Hi', body: '<p>Hi</p>', subscribed: true },
    });
    const id = res.json().data.emails[0].email as string;
    const email = await m.waitForStatus(auth, id, ['SENT']);
    return { id, messageId: String(email.messageId), sesId: ses.messageIdFor(to), contactId: String(email.contactId) };
  }
  const notification = (type: string, ids: { messageId: string; sesId: string }, extra: Record<string, unknown> = {}) =>
    sesEvent(sns, type, ids, extra);
  const email = async (id: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: auth })).json().data;
  const events = async (contactId: string, name: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/events?contactId=${contactId}&name=${name}`, headers: auth })).json()
      .data.total as number;
  const suppressed = async (address: string) =>
    (
      (await m.t.app.inject({ method: 'GET', url: '/suppressions?limit=100', headers: auth })).json().data.items as {
        email: string;
      }[]
    ).some((s) => s.email === address);
  /** A certificate URL on the test's SNS host that nothing has fetched yet. */
  let certs = 0;
  const freshCertUrl = () => `https://${sns.host}/SimpleNotificationService-unfetched${(certs += 1)}.pem`;

  it('is not there while the transport was SMTP (404 in the error envelope)', () => {
    expect(underSmtp.statusCode).toBe(404);
    expect(underSmtp.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404 } });
  });

  it('confirms a subscription to a configured topic by visiting its SubscribeURL', async () => {
    const res = await post(
      sns.sign({
        Type: 'SubscriptionConfirmation',
        TopicArn: TOPIC,
        Message: 'confirm',
        Token: 'tok',
        SubscribeURL: `https://${sns.host}/confirm?Token=tok`,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.type).toBe('confirmed');
    expect(sns.confirmations).toEqual(['/confirm?Token=tok']);
  });

  it(
    'answers 503 with Retry-After, in the envelope, when SNS does not answer the ' + 'confirmation (never a 500)',
    async () => {
      const res = await post(
        sns.sign({
          Type: 'SubscriptionConfirmation',
          TopicArn: TOPIC,
          Message: 'confirm',
          Token: 'gone',
          SubscribeURL: `https://${sns.host}/gone?Token=gone`,
        }),
      );
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    },
  );

  it('refuses another topic — its subscription and its notifications — before fetching any certificate', async () => {
    const { id, messageId, sesId } = await sent('targeted@dest.test');
    const fetches = sns.certFetches;
    const subscribe = sns.sign({
      Type: 'SubscriptionConfirmation',
      TopicArn: THEIRS,
      Message: 'confirm',
      Token: 't2',
      SubscribeURL: `https://${sns.host}/confirm?Token=t2`,
      SigningCertURL: freshCertUrl(),
    });
    const subscribed = await post(subscribe);
    expect(subscribed.statusCode).toBe(403);
    expect(subscribed.json().error.message).toContain('topic');
    const complaint = sesEvent(
      sns,
      'Complaint',
      { messageId, sesId },
      { complaint: { complaintFeedbackType: 'abuse' } },
      { TopicArn: THEIRS, SigningCertURL: freshCertUrl() },
    );
    expect((await post(complaint)).statusCode).toBe(403);
    expect(sns.certFetches).toBe(fetches);
    expect(sns.confirmations).not.toContain('/confirm?Token=t2');
    expect((await email(id)).status).toBe('SENT');
  });

  it('hands the message to SES and marks a Delivery DELIVERED with email.delivered', async () => {
    const { id, messageId, sesId, contactId } = await sent('ok@dest.test');
    expect(ses.sent.find((s) => s.to === 'ok@dest.test')?.raw.toString('utf8')).toContain(`Message-ID: ${messageId}`);
    const res = await post(
      notification('Delivery', { messageId, sesId }, { delivery: { smtpResponse: '250 2.0.0 OK' } }),
      'application/json',
    );
    expect(res.json().data).toMatchObject({ type: 'notification', result: 'applied' });
    expect((await email(id)).status).toBe('DELIVERED');
    expect(await events(contactId, 'email.delivered')).toBe(1);
  });

  it(
    'finds an email by the id inside its Message-ID, an older email by the random one ' +
      'it stored, and no email for an id on another domain',
    async () => {
      const { id, messageId, sesId } = await sent('derived@dest.test');
      expect(messageId).toBe(`<${id}@example.test>`);
      const forged = await post(
        notification(
          'Delivery',
          { messageId: `<${id}@elsewhere.test>`, sesId },
          { delivery: { smtpResponse: '250 OK' } },
        ),
      );
      expect(forged.json().data).toMatchObject({ type: 'notification', result: 'unknown-email' });
      expect((await email(id)).status).toBe('SENT');

      // An email made by a version that stored a random Message-ID (before migration 0009).
      const older = await sent('older@dest.test');
      await m.t.ctx.db.execute(
        sql`UPDATE emails SET message_id = '<Zr8lMx2ToldRandomId4xQ@example.test>' WHERE id = ${older.id}::uuid`,
      );
      expect((await email(older.id)).messageId).toBe('<Zr8lMx2ToldRandomId4xQ@example.test>');
      const res = await post(
        notification(
          'Delivery',
          { messageId: '<Zr8lMx2ToldRandomId4xQ@example.test>', sesId: older.sesId },
          { delivery: { smtpResponse: '250 OK' } },
        ),
      );
      expect(res.json().data).toMatchObject({ type: 'notification', result: 'applied' });
      expect((await email(older.id)).status).toBe('DELIVERED');
    },
  );

  it('changes no email that was not handed to SES under the id the notification quotes', async () => {
    // Sent through SMTP before the move: its Message-ID is known to every recipient, but SES never had it.
    const complaint = await post(
      notification(
        'Complaint',
        { messageId: earlier.messageId, sesId: '0100018fforged-000000' },
        { complaint: { complaintFeedbackType: 'abuse' } },
      ),
    );
    expect(complaint.json().data).toMatchObject({ type: 'notification', result: 'unknown-email' });
    expect((await email(earlier.id)).status).toBe('SENT');
    expect(
      (await m.t.app.inject({ method: 'GET', url: `/contacts/${earlier.contactId}`, headers: auth })).json().data
        .subscribed,
    ).toBe(true);
    expect(await suppressed('earlier@dest.test')).toBe(false);
    expect(await events(earlier.contactId, 'email.complained')).toBe(0);

    // Handed to SES, but the notification names another SES message.
    const { id, messageId, sesId } = await sent('other-id@dest.test');
    const bounce = await post(
      notification(
        'Bounce',
        { messageId, sesId: `${sesId}-another` },
        { bounce: { bounceType: 'Permanent', bouncedRecipients: [{ status: '5.1.1' }] } },
      ),
    );
    expect(bounce.json().data).toMatchObject({ type: 'notification', result: 'unknown-email' });
    expect((await email(id)).status).toBe('SENT');
    expect(await suppressed('other-id@dest.test')).toBe(false);
  });

  it('bounces on a Permanent Bounce, suppresses, and a replayed notification changes nothing', async () => {
    const { id, messageId, sesId, contactId } = await sent('gone@dest.test');
    const message = notification(
      'Bounce',
      { messageId, sesId },
      {
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [
            { emailAddress: 'gone@dest.test', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 unknown' },
          ],
        },
      },
    );
    expect((await post(message)).json().data.result).toBe('applied');
    expect((await email(id)).status).toBe('BOUNCED');
    expect((await post(message)).json().data.result).toBe('duplicate');
    expect(await events(contactId, 'email.bounced')).toBe(1);
    const list = (await m.t.app.inject({ method: 'GET', url: '/suppressions', headers: auth })).json().data.items as {
      email: string;
      reason: string;
    }[];
    expect(list.find((s) => s.email === 'gone@dest.test')?.reason).toBe('BOUNCE');
  });

  it('records a Transient Bounce as email.deferred only', async () => {
    const { id, messageId, sesId, contactId } = await sent('full@dest.test');
    await post(
      notification(
        'Bounce',
        { messageId, sesId },
        { bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull', bouncedRecipients: [{ status: '4.2.2' }] } },
      ),
    );
    expect((await email(id)).status).toBe('SENT');
    expect(await events(contactId, 'email.deferred')).toBe(1);
  });

  it('turns a Complaint into COMPLAINED and unsubscribes the contact', async () => {
    const { id, messageId, sesId, contactId } = await sent('angry@dest.test');
    await post(notification('Complaint', { messageId, sesId }, { complaint: { complaintFeedbackType: 'abuse' } }));
    expect((await email(id)).status).toBe('COMPLAINED');
    expect(
      (await m.t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: auth })).json().data.subscribed,
    ).toBe(false);
  });

  it('refuses a message whose Timestamp is over an hour old (or ahead), before fetching any certificate', async () => {
    const { id, messageId, sesId } = await sent('late@dest.test');
    const fetches = sns.certFetches;
    for (const at of [Date.now() - HOUR - 60_000, Date.now() + HOUR + 60_000]) {
      const stale = sesEvent(
        sns,
        'Complaint',
        { messageId, sesId },
        { complaint: { complaintFeedbackType: 'abuse' } },
        { Timestamp: new Date(at).toISOString(), SigningCertURL: freshCertUrl() },
      );
      const res = await post(stale);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toContain('Timestamp');
    }
    expect(sns.certFetches).toBe(fetches);
    expect((await email(id)).status).toBe('SENT');
    // Within the hour it applies.
    const recent = sesEvent(
      sns,
      'Delivery',
      { messageId, sesId },
      {},
      { Timestamp: new Date(Date.now() - HOUR + 60_000).toISOString() },
    );
    expect((await post(recent)).json().data).toMatchObject({ type: 'notification', result: 'applied' });
  });

  it('answers 200 and ignores a verified notification of an unexpected shape, changing nothing', async () => {
    const { id, messageId, sesId } = await sent('odd@dest.test');
    const complaint = { complaint: { complaintFeedbackType: 'abuse' } };
    const shapes = [
      sns.sign({
        Type: 'Notification',
        TopicArn: TOPIC,
        Message: JSON.stringify({
          notificationType: 'Complaint',
          mail: { messageId: sesId, commonHeaders: { messageId: 123 } },
          ...complaint,
        }),
      }),
      sns.sign({
        Type: 'Notification',
        TopicArn: TOPIC,
        Message: JSON.stringify({
          notificationType: 'Complaint',
          mail: { messageId: sesId, headers: 'x' },
          ...complaint,
        }),
      }),
      sns.sign({
        Type: 'Notification',
        TopicArn: TOPIC,
        Message: JSON.stringify({
          notificationType: 'Complaint',
          mail: { messageId: sesId, commonHeaders: { messageId: `<${id}\u0000@example.test>` } },
          ...complaint,
        }),
      }),
      notification(
        'Bounce',
        { messageId, sesId },
        { bounce: { bounceType: 'Permanent', bouncedRecipients: [{ status: 511, diagnosticCode: { text: 'gone' } }] } },
      ),
      sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: 'not json {' }),
      sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: 'null' }),
    ];
    for (const shape of shapes) {
      const res = await post(shape);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.type).toBe('ignored');
    }
    expect((await email(id)).status).toBe('SENT');
    expect(await suppressed('odd@dest.test')).toBe(false);
  });

  it('refuses a tampered message, a certificate from elsewhere and plain http — changing nothing', async () => {
    const { id, messageId, sesId } = await sent('safe@dest.test');
    const tampered = notification('Complaint', { messageId, sesId });
    tampered.Message = tampered.Message!.replace('Complaint', 'Bounce');
    const fetchesBefore = sns.certFetches;
    expect((await post(tampered)).statusCode).toBe(403);
    const elsewhere = sns.sign({
      Type: 'Notification',
      TopicArn: TOPIC,
      Message: '{}',
      SigningCertURL: 'https://evil.example/SimpleNotificationService-x.pem',
    });
    expect((await post(elsewhere)).statusCode).toBe(403);
    const plain = sns.sign({
      Type: 'Notification',
      TopicArn: TOPIC,
      Message: '{}',
      SigningCertURL: `http://${sns.host}/cert.pem`,
    });
    expect((await post(plain)).statusCode).toBe(403);
    expect(sns.certFetches - fetchesBefore).toBeLessThanOrEqual(1); // cached; never fetched from elsewhere
    expect((await email(id)).status).toBe('SENT');
    expect((await post({ hello: 'world' })).statusCode).toBe(400);
    expect((await post('not json' as unknown as object)).statusCode).toBe(400);
  });
});

describe('POST /feedback/ses without the SES transport, and its rate limit', () => {
  let sns: FakeSns;
  beforeAll(async () => {
    sns = await startFakeSns();
  });
  afterAll(async () => {
    await sns.close();
  });

  it('is not there with the outbox transport (404 in the error envelope)', async () => {
    const t = await createTestApp({ env: snsEnv(sns) });
    try {
      const res = await postTo(
        t.app.inject.bind(t.app),
        sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: '{}' }),
      );
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404 } });
    } finally {
      await t.close();
    }
  });

  it(
    'limits each client address like the links in mail: 429 with Retry-After and ' +
      'RateLimit headers; other addresses still get in',
    async () => {
      const ses = await startFakeSes();
      const t = await createTestApp({ env: { ...ses.env, ...snsEnv(sns), LINK_RATE_LIMIT_PER_MINUTE: '3' } });
      try {
        const inject = t.app.inject.bind(t.app);
        const message = () =>
          sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: JSON.stringify({ notificationType: 'Open' }) });
        // Requests until the limit answers (a new minute may start in between: then it takes up to twice the limit).
        let refused: Awaited<ReturnType<Inject>> | null = null;
        let accepted = 0;
        for (let i = 0; i < 3 * 2 + 1 && !refused; i++) {
          const res = await postTo(inject, message(), { remoteAddress: '198.51.100.7' });
          if (res.statusCode === 429) refused = res;
          else {
            expect(res.statusCode, res.body).toBe(200);
            expect(res.headers['ratelimit-limit']).toBe('3');
            accepted += 1;
          }
        }
        expect(refused, 'no request was refused').not.toBeNull();
        expect(accepted).toBeGreaterThanOrEqual(3);
        expect(refused!.json()).toMatchObject({
          success: false,
          error: { code: 'RATE_LIMIT_EXCEEDED', statusCode: 429 },
        });
        expect(refused!.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0' });
        expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused!.headers['ratelimit-reset'])).toBeGreaterThan(0);
        const other = await postTo(inject, message(), { remoteAddress: '198.51.100.8' });
        expect(other.statusCode, other.body).toBe(200);
      } finally {
        await t.close();
        await ses.close();
      }
    },
  );
});

describe('SES_SNS_TOPIC_ARNS', () => {
  it('is required with MAIL_TRANSPORT=ses: herald refuses to start and says why', () => {
    const root = repoRoot;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-ses-config-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DATA_DIR: dataDir,
          MAIL_TRANSPORT: 'ses',
          SES_REGION: 'us-east-1',
        },
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain('SES_SNS_TOPIC_ARNS: required when MAIL_TRANSPORT is ses');
      expect(run.stderr).toContain('no other AWS account');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
