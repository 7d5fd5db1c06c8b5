/**
 * The circuit breaker is shared by every worker: two workers sending over a transport that stops answering see
 * it go DOWN together (one `transport.down` webhook), and at the end of each back-off exactly one of them probes
 * it with a single connection — never both, the second back-off twice the first. A provider's rate and a warm-up's
 * daily cap hold for the two workers together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../../support/scripted-smtp.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

describe('one circuit breaker across two workers', () => {
  let m: MailFixture;
  let second: TestApp;
  let a: ScriptedSmtp;
  let b: ScriptedSmtp;
  let hook: WebhookReceiver;
  const env = {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    TRANSPORT_BACKOFF_SECONDS: '2',
    RATE_LIMIT_PER_MINUTE: '100000',
    SEND_MAX_IN_FLIGHT: '4',
  };

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({ env });
    const shared =
      m.t.testDb.kind === 'postgres' ? { database: m.t.testDb } : { database: m.t.testDb, handle: m.t.ctx.database };
    second = await createTestApp({
      ...shared,
      worker: true,
      env: {
        ...env,
        DNS_SERVERS: m.dns.address,
        // The same instance transport and sending settings as the first worker's.
        SMTP_URL: m.sink.url,
        SEND_RATE_PER_SECOND: '0',
        SEND_RETRY_DELAY_SECONDS: '1',
        SEND_RETRY_DELAY_MAX_SECONDS: '2',
      },
    });
    a = await startScriptedSmtp();
    b = await startScriptedSmtp();
  });
  afterAll(async () => {
    await second?.close();
    await m?.close();
    await a?.close();
    await b?.close();
    await hook?.close();
  });

  it('goes DOWN once and is probed once per back-off, by one worker', async () => {
    const { auth } = await m.verifiedDomain('example.test');
    const req = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
    const [ra, rb] = await Promise.all([
      req('POST', '/transports', { name: 'a', type: 'smtp', config: a.config }),
      req('POST', '/transports', { name: 'b', type: 'smtp', config: b.config }),
    ]);
    const aId = ra.json().data.id as string;
    const bId = rb.json().data.id as string;
    expect((await req('POST', '/webhooks', { url: hook.url, events: ['transport.down'] })).statusCode).toBe(201);
    const routed = await req('PUT', '/routing', { rules: [{ match: {}, transportId: aId, fallbackIds: [bId] }] });
    expect(routed.statusCode, routed.body).toBe(200);

    // A greeting of 421 is a failed connection the relay counts (a refused one never reaches it).
    await a.set('greet421');
    const to = Array.from({ length: 30 }, (_, i) => `r${i}@dest.test`);
    const sent = await req('POST', '/v1/send', { to, from: 'hello@example.test', subject: 's', body: 'b' });
    expect(sent.statusCode, sent.body).toBe(200);
    const ids = (sent.json().data.emails as { email: string }[]).map((e) => e.email);
    for (const id of ids) await m.waitForStatus(auth, id, ['SENT']);
    for (const address of to) expect(b.perRecipient.get(address)).toBe(1);

    const state = async () => (await req('GET', `/transports/${aId}`)).json().data as Record<string, unknown>;
    await until(async () => (await state()).state === 'DOWN', 'relay a DOWN');
    // From here only probes reach it: two back-offs (2 s, then 4 s) give two probes, each one connection.
    const before = a.connections;
    const firstError = String((await state()).lastErrorAt);
    let probes = 0;
    let seen = firstError;
    await until(
      async () => {
        const now = String((await state()).lastErrorAt);
        if (now !== seen) {
          probes++;
          seen = now;
        }
        return probes >= 2;
      },
      'two probes',
      30_000,
      100,
    );
    // Two probes, each a single connection, a back-off apart (two workers probing at once would be two at once).
    const times = a.connectionTimes.slice(before);
    expect(times.length).toBe(2);
    // The first probe failed: the next back-off is twice the first (4 s), counted from that probe.
    expect(times[1]! - times[0]!).toBeGreaterThan(3500);
    expect((await state()).state).toBe('DOWN');
    const downs = hook.received.filter((h) => h.json.type === 'transport.down' && h.json.data.transportId === aId);
    expect(downs).toHaveLength(1);
  });

  it('keeps a provider’s rate per hour and a warm-up’s daily cap across both workers', async () => {
    const paced = await m.verifiedDomain('paced-workers.test');
    const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
      m.t.app.inject({
        method,
        url,
        headers: paced.auth,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    // 3,600 an hour to `other`: one a second, whichever worker sends.
    const limited = await req('PATCH', `/domains/${paced.domainId}`, { providerLimits: { other: 3600 } });
    expect(limited.statusCode, limited.body).toBe(200);
    const to = Array.from({ length: 8 }, (_, i) => `pw${i}@pw-dest.test`);
    const sent = await req('POST', '/v1/send', { to, from: 'hi@paced-workers.test', subject: 's', body: 'b' });
    expect(sent.statusCode, sent.body).toBe(200);
    for (const e of sent.json().data.emails as { email: string }[]) {
      await m.waitForStatus(paced.auth, e.email, ['SENT'], 60_000);
    }
    const times = m.sink.messages
      .filter((msg) => msg.to[0]!.endsWith('@pw-dest.test'))
      .map((msg) => msg.arrivedAt)
      .sort((x, y) => x - y);
    expect(times).toHaveLength(8);
    // Never before its slot: no second holds three, and the eight span at least six seconds.
    for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 2]!).toBeGreaterThan(1500);
    expect(times[7]! - times[0]!).toBeGreaterThan(6000);

    const warming = await m.verifiedDomain('warm-workers.test', paced.project);
    const warm = await req('PATCH', `/domains/${warming.domainId}`, { warmup: { enabled: true, schedule: [5] } });
    expect(warm.statusCode, warm.body).toBe(200);
    const news = await req('POST', '/v1/send', {
      to: Array.from({ length: 12 }, (_, i) => `ww${i}@ww-dest.test`),
      from: 'news@warm-workers.test',
      subject: 'news',
      body: 'b',
      stream: 'marketing',
      subscribed: true,
    });
    expect(news.statusCode, news.body).toBe(200);
    const ids = (news.json().data.emails as { email: string }[]).map((e) => e.email);
    let statuses: string[] = [];
    await until(
      async () => {
        const emails = await Promise.all(ids.map(async (id) => (await req('GET', `/emails/${id}`)).json().data));
        statuses = emails.map((e) => `${e.status}/${e.statusReason}`);
        return statuses.filter((x) => x.startsWith('SENT')).length === 5 && statuses.includes('QUEUED/HELD_WARMUP');
      },
      () => `5 sent, the rest held: ${statuses.join(', ')}`,
    );
    await until(
      async () =>
        (await Promise.all(ids.map(async (id) => (await req('GET', `/emails/${id}`)).json().data.status))).filter(
          (x) => x === 'QUEUED',
        ).length === 7,
      'the other 7 held',
    );
    expect(m.sink.messages.filter((msg) => msg.to[0]!.endsWith('@ww-dest.test'))).toHaveLength(5);
    const domain = (await req('GET', `/domains/${warming.domainId}`)).json().data;
    expect(domain.warmup).toMatchObject({ day: 1, cap: 5, sentToday: 5 });
  });
});
