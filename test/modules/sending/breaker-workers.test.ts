/**
 * The circuit breaker is shared by every worker: two workers sending over a transport that stops answering see
 * it go DOWN together (one `transport.down` webhook), and at the end of each back-off exactly one of them probes
 * it with a single connection — never both.
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
    second = await createTestApp({ ...shared, worker: true, env: { ...env, DNS_SERVERS: m.dns.address } });
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
    expect(times[1]! - times[0]!).toBeGreaterThan(1500);
    expect((await state()).state).toBe('DOWN');
    const downs = hook.received.filter((h) => h.json.type === 'transport.down' && h.json.data.transportId === aId);
    expect(downs).toHaveLength(1);
  });
});
