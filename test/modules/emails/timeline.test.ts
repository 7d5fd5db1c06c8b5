/**
 * The timeline of an email, recorded as it happens: a sent, clicked email (who handed it over, the SMTP conversation,
 * people's and machines' opens, the webhook delivery about it), a bounced one (the refusal, the suppression), a
 * deferred one (the refused attempt, the wait, the attempt that took it), and a cancelled one; other projects' emails
 * are not found.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

interface Entry {
  at: string;
  type: string;
  detail: Record<string, unknown>;
}

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('the timeline of an email', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    sender = await m.verifiedDomain('timeline.test');
    const hooked = await m.t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: sender.auth,
      payload: { url: hook.url, events: ['email.sent'] },
    });
    expect(hooked.statusCode, hooked.body).toBe(201);
  });
  afterAll(async () => {
    await m?.close();
    await hook?.close();
  });

  const requestIds = new Map<string, string>();
  async function send(to: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: {
        to,
        from: 'news@timeline.test',
        subject: 'Hello',
        body: '<p>Read <a href="https://example.com/article">the article</a></p>',
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.emails[0].email as string;
    requestIds.set(id, String(res.headers['x-request-id']));
    return id;
  }

  async function timeline(id: string): Promise<Entry[]> {
    const res = await m.t.app.inject({ method: 'GET', url: `/emails/${id}/timeline`, headers: sender.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Entry[];
  }
  const types = (entries: Entry[]) => entries.map((e) => e.type);

  it('tells a sent email from its acceptance to its clicks, with the SMTP conversation and the webhook', async () => {
    const id = await send('reader@dest.test', { tracking: true });
    await m.waitForStatus(sender.auth, id, ['SENT']);
    const received = await m.sink.waitForRecipient('reader@dest.test');
    const html = (await simpleParser(received.raw)).html as string;
    const path = (kind: 'o' | 'c') => new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`).exec(html)![1]!;
    // A machine's open (a HEAD request, as link scanners make), then a person's, then a click.
    await m.t.app.inject({ method: 'HEAD', url: path('o') });
    await m.t.app.inject({ method: 'GET', url: path('o'), headers: { 'user-agent': BROWSER } });
    expect(
      (await m.t.app.inject({ method: 'GET', url: path('c'), headers: { 'user-agent': BROWSER } })).statusCode,
    ).toBe(302);
    await hook.waitFor(1, 10_000, (w) => w.json.data.emailId === id);
    const entries = await until(
      async () => {
        const all = await timeline(id);
        return all.some((e) => e.type === 'webhook' && e.detail.status === 'SUCCEEDED') && all;
      },
      () => 'the webhook delivery never showed on the timeline',
    );
    expect(types(entries).filter((t) => t !== 'webhook')).toEqual([
      'accepted',
      'queued',
      'attempt',
      'sent',
      'opened',
      'opened',
      'clicked',
    ]);
    const at = entries.map((e) => Date.parse(e.at));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    const [accepted] = entries;
    expect(accepted!.detail).toMatchObject({ how: 'api', source: 'TRANSACTIONAL', actor: { type: 'key' } });
    expect(accepted!.detail.requestId).toBe(requestIds.get(id));
    const attempt = entries.find((e) => e.type === 'attempt')!;
    expect(attempt.detail).toMatchObject({ transport: 'default', transportType: 'smtp', outcome: 'sent' });
    const lines = (attempt.detail.conversation as { from: string; line: string }[]).map((l) => `${l.from}: ${l.line}`);
    expect(lines[0]).toMatch(/^S: 220 /);
    expect(lines).toContainEqual(expect.stringMatching(/^C: EHLO /));
    expect(lines.some((l) => /^C: MAIL FROM:<[^>]+@timeline\.test>/.test(l))).toBe(true);
    expect(lines).toContain('C: RCPT TO:<reader@dest.test>');
    expect(lines).toContain('C: DATA');
    expect(lines.at(-1)).toMatch(/^S: 250 /);
    // The message itself is never in it.
    expect(JSON.stringify(attempt)).not.toContain('Subject:');
    const opens = entries.filter((e) => e.type === 'opened').map((e) => e.detail);
    expect(opens).toEqual([{ human: false, machineReason: 'HEAD_REQUEST' }, { human: true }]);
    expect(entries.find((e) => e.type === 'clicked')!.detail).toMatchObject({ url: 'https://example.com/article' });
    const webhook = entries.find((e) => e.type === 'webhook')!;
    expect(webhook.detail).toMatchObject({
      event: 'email.sent',
      url: hook.url,
      status: 'SUCCEEDED',
      responseStatus: 200,
    });
  });

  it('tells a bounce: the refused attempt with the server reply, the bounce and the suppression', async () => {
    m.sink.failRecipient('gone@dest.test', { code: 550, message: '5.1.1 <gone@dest.test>: no such user' });
    const id = await send('gone@dest.test');
    await m.waitForStatus(sender.auth, id, ['BOUNCED']);
    const entries = await timeline(id);
    expect(types(entries)).toEqual(['accepted', 'queued', 'attempt', 'bounced', 'suppressed']);
    const attempt = entries[2]!.detail;
    expect(attempt).toMatchObject({ outcome: 'refused' });
    expect(attempt.response).toMatch(/550.*no such user/);
    const lines = (attempt.conversation as { from: string; line: string }[]).map((l) => `${l.from}: ${l.line}`);
    expect(lines).toContain('C: RCPT TO:<gone@dest.test>');
    expect(lines.some((l) => /^S: 550 .*no such user/.test(l))).toBe(true);
    expect(entries[3]!.detail).toMatchObject({ source: 'smtp', code: '5.1.1' });
    expect(entries[4]!.detail).toMatchObject({ reason: 'BOUNCE', address: 'gone@dest.test' });
  });

  it('tells a deferral: the refused attempt, the wait, and the attempt that took it', async () => {
    m.sink.failRecipient('later@dest.test', { code: 451, message: '4.3.0 try again later', times: 1 });
    const id = await send('later@dest.test');
    await m.waitForStatus(sender.auth, id, ['SENT']);
    const entries = await timeline(id);
    expect(types(entries).filter((t) => t !== 'webhook')).toEqual([
      'accepted',
      'queued',
      'attempt',
      'deferred',
      'attempt',
      'sent',
    ]);
    expect(entries[2]!.detail).toMatchObject({ outcome: 'refused' });
    expect(entries[2]!.detail.response).toMatch(/451/);
    expect(entries[3]!.detail.retryAt).toEqual(expect.any(String));
    expect(entries[4]!.detail).toMatchObject({ outcome: 'sent' });
  });

  it('tells a cancellation by whom, and a suppressed send', async () => {
    const id = await send('waiting@dest.test', { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    const cancelled = await m.t.app.inject({ method: 'POST', url: `/emails/${id}/cancel`, headers: sender.auth });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const entries = await timeline(id);
    expect(types(entries)).toEqual(['accepted', 'scheduled', 'cancelled']);
    expect(entries[2]!.detail).toMatchObject({ actor: { type: 'key' } });
    // gone@dest.test was suppressed by its bounce: a new send to it is suppressed at once.
    const suppressed = await send('gone@dest.test');
    expect(types(await timeline(suppressed))).toEqual(['accepted', 'suppressed']);
  });

  it('loses the address of a deleted contact, as the email itself does', async () => {
    m.sink.failRecipient('erase-me@dest.test', { code: 550, message: '5.1.1 <erase-me@dest.test>: no such user' });
    const id = await send('erase-me@dest.test');
    await m.waitForStatus(sender.auth, id, ['BOUNCED']);
    expect(JSON.stringify(await timeline(id))).toContain('erase-me@dest.test');
    const email = (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: sender.auth })).json().data;
    const deleted = await m.t.app.inject({
      method: 'DELETE',
      url: `/contacts/${email.contactId as string}`,
      headers: sender.auth,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const after = JSON.stringify(await timeline(id));
    expect(after.toLowerCase()).not.toContain('erase-me@dest.test');
    expect(after).toContain('erased@erased.invalid');
    expect(types(await timeline(id))).toEqual(['accepted', 'queued', 'attempt', 'bounced', 'suppressed']);
  });

  it('answers 404 for an unknown email and for another project’s', async () => {
    const id = await send('mine@dest.test');
    const other = await m.t.createProject();
    expectError(
      await m.t.app.inject({ method: 'GET', url: `/emails/${id}/timeline`, headers: other.auth }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await m.t.app.inject({
        method: 'GET',
        url: '/emails/01900000-0000-7000-8000-000000000000/timeline',
        headers: sender.auth,
      }),
      404,
      'NOT_FOUND',
    );
  });
});
