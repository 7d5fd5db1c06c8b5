// The SNS topics of projects' own SES transports are accepted by POST /feedback/ses as the instance's are (signed
// by a test SNS whose certificate the configuration admits), each for its own project's emails only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startFakeSes, type FakeSes } from '../../support/ses.ts';
import { startFakeSns, type FakeSns } from '../../support/sns.ts';

const INSTANCE_TOPIC = 'arn:aws:sns:us-east-1:123456789012:instance-feedback';
const PROJECT_TOPIC = 'arn:aws:sns:eu-west-1:210987654321:project-feedback';
const OTHER_TOPIC = 'arn:aws:sns:eu-west-1:210987654321:unlisted';

type Auth = { authorization: string };
type App = TestApp['app'];

const snsEnv = (sns: FakeSns) => ({
  SES_SNS_CERT_HOSTS: sns.host,
  SES_SNS_CA_FILE: sns.caFile,
  SES_SNS_TOPIC_ARNS: INSTANCE_TOPIC,
});

const post = (app: App, body: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/feedback/ses',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': String(body.Type) },
  });

/** A signed SES Bounce notification on `topic` about the message SES knows as `sesId`. */
const bounce = (sns: FakeSns, topic: string, ids: { messageId: string; sesId: string }) =>
  sns.sign({
    Type: 'Notification',
    TopicArn: topic,
    Message: JSON.stringify({
      notificationType: 'Bounce',
      mail: { messageId: ids.sesId, commonHeaders: { messageId: ids.messageId } },
      bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ status: '5.1.1' }] },
    }),
  });

async function addSesTransport(app: App, auth: Auth, name: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/transports',
    headers: auth,
    payload: {
      type: 'ses',
      name,
      config: {
        region: 'eu-west-1',
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'project-secret-access-key-0123456789',
        snsTopicArns: [PROJECT_TOPIC],
      },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe(`POST /feedback/ses and projects' SES transports (${testDatabaseKind})`, () => {
  let sns: FakeSns;
  beforeAll(async () => {
    sns = await startFakeSns();
  });
  afterAll(async () => {
    await sns.close();
  });

  it('takes the topics of a project’s SES transport (outbox instance); 404 before any SES transport', async () => {
    const t = await createTestApp({ env: snsEnv(sns) });
    try {
      const ids = { messageId: '<nobody@example.test>', sesId: 'ses-nobody' };
      const before = await post(t.app, bounce(sns, PROJECT_TOPIC, ids));
      expect(before.statusCode).toBe(404);
      expect(before.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404 } });

      const project = await t.createProject('With SES');
      await addSesTransport(t.app, project.auth, 'SES');
      const confirm = await post(
        t.app,
        sns.sign({
          Type: 'SubscriptionConfirmation',
          TopicArn: PROJECT_TOPIC,
          Message: 'confirm',
          Token: 'project',
          SubscribeURL: `https://${sns.host}/confirm?Token=project`,
        }),
      );
      expect(confirm.statusCode, confirm.body).toBe(200);
      expect(confirm.json().data.type).toBe('confirmed');
      expect(sns.confirmations).toContain('/confirm?Token=project');
      const notification = await post(t.app, bounce(sns, PROJECT_TOPIC, ids));
      expect(notification.json().data).toEqual({ type: 'notification', result: 'unknown-email' });
      // A topic no transport lists, and the instance's topics while the instance does not send through SES.
      for (const topic of [OTHER_TOPIC, INSTANCE_TOPIC]) {
        const refused = await post(t.app, bounce(sns, topic, ids));
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.message).toContain('topic');
      }
    } finally {
      await t.close();
    }
  });

  describe('with the SES transport on the instance too', () => {
    let ses: FakeSes;
    let m: MailFixture;
    let sender: Auth;

    beforeAll(async () => {
      ses = await startFakeSes();
      m = await startMailFixture({ env: { ...ses.env, ...snsEnv(sns) } });
      sender = (await m.verifiedDomain('shop.example')).auth;
      await addSesTransport(m.t.app, (await m.t.createProject('Neighbour')).auth, 'Neighbour SES');
    });
    afterAll(async () => {
      await m.close();
      await ses.close();
    });

    it('applies a project topic’s notification to that project’s emails only', async () => {
      const res = await m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: sender,
        payload: { to: 'ann@dest.example', from: 'news@shop.example', subject: 'Hi', body: '<p>Hi</p>' },
      });
      const id = String(res.json().data.emails[0].email);
      const email = await m.waitForStatus(sender, id, ['SENT']);
      const ids = { messageId: String(email.messageId), sesId: ses.messageIdFor('ann@dest.example') };
      // The neighbour's topic speaks for the neighbour's emails, not this one.
      const foreign = await post(m.t.app, bounce(sns, PROJECT_TOPIC, ids));
      expect(foreign.json().data).toEqual({ type: 'notification', result: 'foreign' });
      const read = async () =>
        (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: sender })).json().data;
      expect((await read()).status).toBe('SENT');
      // The instance's topic speaks for every project's email handed to SES.
      const applied = await post(m.t.app, bounce(sns, INSTANCE_TOPIC, ids));
      expect(applied.json().data).toEqual({ type: 'notification', result: 'applied' });
      expect((await read()).status).toBe('BOUNCED');
    });
  });
});
