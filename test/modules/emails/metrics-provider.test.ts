// Each email records the transport that carried it and its recipient's mailbox provider (from the domain's MX hosts,
// or the providers' own consumer domains): on the email record, in its webhook events, and as groupings of GET
// /emails/metrics. Both are null until the email is handed over; metrics count such emails as provider `unknown`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const zero = {
  recipients: 0,
  sent: 0,
  delivered: 0,
  bounced: 0,
  complained: 0,
  opened: 0,
  humanOpened: 0,
  clicked: 0,
  humanClicked: 0,
  unsubscribed: 0,
  failed: 0,
  deliveryRate: 0,
  bounceRate: 0,
  complaintRate: 0,
  openRate: 0,
  clickRate: 0,
};

/** Recipients and the provider each one's domain has. */
const RECIPIENTS: [string, string][] = [
  ['ann@gmail.com', 'gmail'],
  ['bob@outlook.com', 'microsoft'],
  ['cat@google-hosted.test', 'gmail'],
  ['dan@apple-hosted.test', 'apple'],
  ['eve@plain.test', 'other'],
];
const SUPPRESSED = 'zed@plain.test';

describe('transport and mailbox provider of each email', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let auth: { authorization: string };
  const ids = new Map<string, string>();

  const req = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const send = async (to: string) => {
    const res = await req('POST', '/v1/send', {
      to,
      from: 'app@provider.example.test',
      subject: 'Hi',
      body: '<p>Hi</p>',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.emails[0].email as string;
  };

  beforeAll(async () => {
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    hook = await startWebhookReceiver();
    m.dns.setRecords('google-hosted.test', [{ type: 'MX', exchange: 'aspmx.l.google.com', priority: 1 }]);
    m.dns.setRecords('apple-hosted.test', [
      { type: 'MX', exchange: 'mx01.mail.icloud.com', priority: 10 },
      { type: 'MX', exchange: 'mx02.mail.icloud.com', priority: 20 },
    ]);
    auth = (await m.verifiedDomain('provider.example.test')).auth;
    const created = await req('POST', '/webhooks', { url: hook.url, events: ['email.queued', 'email.sent'] });
    expect(created.statusCode, created.body).toBe(201);
    expect((await req('POST', '/suppressions', { email: SUPPRESSED })).statusCode).toBeLessThan(300);
    for (const [to] of RECIPIENTS) ids.set(to, await send(to));
    ids.set(SUPPRESSED, await send(SUPPRESSED));
    for (const [to] of RECIPIENTS) await m.waitForStatus(auth, ids.get(to)!, ['SENT']);
  }, 90_000);
  afterAll(async () => {
    await hook.close();
    await m.close();
  });

  it('records the transport and the provider of each email handed over', async () => {
    for (const [to, provider] of RECIPIENTS) {
      const email = (await req('GET', `/emails/${ids.get(to)!}`)).json().data;
      expect({ to: email.to, transportId: email.transportId, provider: email.provider }).toEqual({
        to,
        transportId: 'default',
        provider,
      });
    }
    expect(m.sink.messages.map((msg) => msg.to[0]).sort()).toEqual(RECIPIENTS.map(([to]) => to).sort());
  });

  it('leaves both null on an email never handed over, and shows them in the list', async () => {
    const suppressed = (await req('GET', `/emails/${ids.get(SUPPRESSED)!}`)).json().data;
    expect(suppressed).toMatchObject({ status: 'SUPPRESSED', transportId: null, provider: null });
    const list = (await req('GET', '/emails?limit=20')).json().data.items as Record<string, unknown>[];
    expect(list.find((e) => e.id === ids.get('ann@gmail.com'))).toMatchObject({
      transportId: 'default',
      provider: 'gmail',
    });
    expect(list.find((e) => e.id === ids.get(SUPPRESSED))).toMatchObject({ transportId: null, provider: null });
  });

  it('carries them in the webhook events: null when queued, set once sent', async () => {
    const events = await hook.waitFor(RECIPIENTS.length * 2, 30_000);
    const of = (type: string, to: string) => events.find((e) => e.json.type === type && e.json.data.to === to);
    for (const [to, provider] of RECIPIENTS) {
      expect(of('email.queued', to)?.json.data).toMatchObject({ transportId: null, provider: null });
      expect(of('email.sent', to)?.json.data).toMatchObject({ transportId: 'default', provider });
    }
  });

  it('groups the metrics per provider, most sent first, emails never handed over as unknown', async () => {
    const res = await req('GET', '/emails/metrics?groupBy=provider');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.groupBy).toBe('provider');
    const sentOne = { ...zero, recipients: 1, sent: 1 };
    expect(data.groups).toEqual([
      { provider: 'gmail', ...zero, recipients: 2, sent: 2 },
      { provider: 'apple', ...sentOne },
      { provider: 'microsoft', ...sentOne },
      { provider: 'other', ...sentOne },
      { provider: 'unknown', ...zero, recipients: 1 },
    ]);
    expect(data.totals).toMatchObject({ recipients: 6, sent: 5 });
  });

  it('groups the metrics per transport that carried each email, null for those never handed over', async () => {
    const res = await req('GET', '/emails/metrics?groupBy=transport');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.groups).toEqual([
      { transportId: 'default', transportName: 'default', ...zero, recipients: 5, sent: 5 },
      { transportId: null, transportName: null, ...zero, recipients: 1 },
    ]);
  });

  it('refuses a grouping it does not know', async () => {
    const res = await req('GET', '/emails/metrics?groupBy=country');
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.errors.map((e: { field: string }) => e.field)).toContain('groupBy');
  });
});
