// CONTRACT §12: SES notifications through SNS, verified as AWS documents it, against a signing certificate
// the test makes and serves over HTTPS (admitted by the test's configuration; the production rule stays strict).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startMailFixture, type MailFixture } from '../support/mail.ts';
import { startFakeSns, type FakeSns } from '../support/sns.ts';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:herald-feedback';

describe('POST /feedback/ses', () => {
  let m: MailFixture;
  let sns: FakeSns;
  let auth: { authorization: string };

  beforeAll(async () => {
    sns = await startFakeSns();
    m = await startMailFixture({ env: { SES_SNS_CERT_HOSTS: sns.host, SES_SNS_CA_FILE: sns.caFile, SES_SNS_TOPIC_ARNS: TOPIC } });
    auth = (await m.verifiedDomain('example.test')).auth;
  });
  afterAll(async () => {
    await m.close();
    await sns.close();
  });

  const post = (body: unknown, contentType = 'text/plain; charset=UTF-8') => m.t.app.inject({
    method: 'POST', url: '/feedback/ses', payload: JSON.stringify(body), headers: { 'content-type': contentType, 'x-amz-sns-message-type': String((body as { Type?: string }).Type) },
  });
  async function sent(to: string) {
    const res = await m.t.app.inject({ method: 'POST', url: '/v1/send', headers: auth, payload: { to, from: 'news@example.test', subject: 'Hi', body: '<p>Hi</p>', subscribed: true } });
    const id = res.json().data.emails[0].email as string;
    const email = await m.waitForStatus(auth, id, ['SENT']);
    return { id, messageId: String(email.messageId), contactId: String(email.contactId) };
  }
  const notification = (type: string, messageId: string, extra: Record<string, unknown>) =>
    sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: JSON.stringify({ notificationType: type, mail: { messageId: 'ses-0001', commonHeaders: { messageId } }, ...extra }) });
  const email = async (id: string) => (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: auth })).json().data;
  const events = async (contactId: string, name: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/events?contactId=${contactId}&name=${name}`, headers: auth })).json().data.total as number;

  it('confirms a subscription by visiting its SubscribeURL', async () => {
    const res = await post(sns.sign({ Type: 'SubscriptionConfirmation', TopicArn: TOPIC, Message: 'confirm', Token: 'tok', SubscribeURL: `https://${sns.host}/confirm?Token=tok` }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.type).toBe('confirmed');
    expect(sns.confirmations).toEqual(['/confirm?Token=tok']);
  });

  it('marks a Delivery DELIVERED with email.delivered', async () => {
    const { id, messageId, contactId } = await sent('ok@dest.test');
    const res = await post(notification('Delivery', messageId, { delivery: { smtpResponse: '250 2.0.0 OK' } }), 'application/json');
    expect(res.json().data).toMatchObject({ type: 'notification', result: 'applied' });
    expect((await email(id)).status).toBe('DELIVERED');
    expect(await events(contactId, 'email.delivered')).toBe(1);
  });

  it('finds an email by the id inside its Message-ID, an older email by the random one it stored, and no email for an id on another domain', async () => {
    const { id, messageId } = await sent('derived@dest.test');
    expect(messageId).toBe(`<${id}@example.test>`);
    const forged = await post(notification('Delivery', `<${id}@elsewhere.test>`, { delivery: { smtpResponse: '250 OK' } }));
    expect(forged.json().data).toMatchObject({ type: 'notification', result: 'unknown-email' });
    expect((await email(id)).status).toBe('SENT');

    // An email made by a version that stored a random Message-ID (before migration 0009).
    const older = await sent('older@dest.test');
    await m.t.ctx.db.execute(sql`UPDATE emails SET message_id = '<Zr8lMx2ToldRandomId4xQ@example.test>' WHERE id = ${older.id}::uuid`);
    expect((await email(older.id)).messageId).toBe('<Zr8lMx2ToldRandomId4xQ@example.test>');
    const res = await post(notification('Delivery', '<Zr8lMx2ToldRandomId4xQ@example.test>', { delivery: { smtpResponse: '250 OK' } }));
    expect(res.json().data).toMatchObject({ type: 'notification', result: 'applied' });
    expect((await email(older.id)).status).toBe('DELIVERED');
  });

  it('bounces on a Permanent Bounce, suppresses, and a replayed notification changes nothing', async () => {
    const { id, messageId, contactId } = await sent('gone@dest.test');
    const message = notification('Bounce', messageId, { bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: 'gone@dest.test', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 unknown' }] } });
    expect((await post(message)).json().data.result).toBe('applied');
    expect((await email(id)).status).toBe('BOUNCED');
    expect((await post(message)).json().data.result).toBe('duplicate');
    expect(await events(contactId, 'email.bounced')).toBe(1);
    const list = (await m.t.app.inject({ method: 'GET', url: '/suppressions', headers: auth })).json().data.items as { email: string; reason: string }[];
    expect(list.find((s) => s.email === 'gone@dest.test')?.reason).toBe('BOUNCE');
  });

  it('records a Transient Bounce as email.deferred only', async () => {
    const { id, messageId, contactId } = await sent('full@dest.test');
    await post(notification('Bounce', messageId, { bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull', bouncedRecipients: [{ status: '4.2.2' }] } }));
    expect((await email(id)).status).toBe('SENT');
    expect(await events(contactId, 'email.deferred')).toBe(1);
  });

  it('turns a Complaint into COMPLAINED and unsubscribes the contact', async () => {
    const { id, messageId, contactId } = await sent('angry@dest.test');
    await post(notification('Complaint', messageId, { complaint: { complaintFeedbackType: 'abuse' } }));
    expect((await email(id)).status).toBe('COMPLAINED');
    expect((await m.t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: auth })).json().data.subscribed).toBe(false);
  });

  it('refuses a tampered message, a certificate from elsewhere, plain http and a foreign topic — changing nothing', async () => {
    const { id, messageId } = await sent('safe@dest.test');
    const tampered = notification('Complaint', messageId, {});
    tampered.Message = tampered.Message!.replace('Complaint', 'Bounce');
    const fetchesBefore = sns.certFetches;
    expect((await post(tampered)).statusCode).toBe(403);
    const elsewhere = sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: '{}', SigningCertURL: 'https://evil.example/SimpleNotificationService-x.pem' });
    expect((await post(elsewhere)).statusCode).toBe(403);
    const plain = sns.sign({ Type: 'Notification', TopicArn: TOPIC, Message: '{}', SigningCertURL: `http://${sns.host}/cert.pem` });
    expect((await post(plain)).statusCode).toBe(403);
    const foreign = sns.sign({ Type: 'Notification', TopicArn: 'arn:aws:sns:us-east-1:999999999999:theirs', Message: JSON.stringify({ notificationType: 'Complaint', mail: { commonHeaders: { messageId } } }) });
    expect((await post(foreign)).statusCode).toBe(403);
    expect(sns.certFetches - fetchesBefore).toBeLessThanOrEqual(1); // cached; never fetched from elsewhere
    expect((await email(id)).status).toBe('SENT');
    expect((await post({ hello: 'world' })).statusCode).toBe(400);
    expect((await post('not json' as unknown as object)).statusCode).toBe(400);
  });
});
