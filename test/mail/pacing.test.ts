import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { startMailFixture, type MailFixture } from '../support/mail.ts';

describe('per-project send pacing across two workers', () => {
  let m: MailFixture;
  let second: TestApp;
  const env = { SEND_RATE_PER_SECOND: '2' };

  beforeAll(async () => {
    m = await startMailFixture({ env });
    const shared = m.t.testDb.kind === 'postgres' ? { database: m.t.testDb } : { database: m.t.testDb, handle: m.t.ctx.database };
    second = await createTestApp({ ...shared, worker: true, env: { ...env, SMTP_URL: m.sink.url, DNS_SERVERS: m.dns.address } });
  });
  afterAll(async () => {
    await second.close();
    await m.close();
  });

  it('hands at most SEND_RATE_PER_SECOND emails per second to the transport, whichever worker runs them', async () => {
    const sender = await m.verifiedDomain('example.test');
    const to = Array.from({ length: 6 }, (_, i) => `r${i}@dest.test`);
    const res = await m.t.app.inject({ method: 'POST', url: '/v1/send', headers: sender.auth, payload: { to, from: 'hello@example.test', subject: 's', body: 'b' } });
    const ids = (res.json().data.emails as { email: string }[]).map((e) => e.email);
    await Promise.all(ids.map((id) => m.waitForStatus(sender.auth, id, ['SENT'])));
    const times = m.sink.messages.map((msg) => msg.receivedAt.getTime()).sort((a, b) => a - b);
    expect(times).toHaveLength(6);
    // Five or six messages at two per second need three one-second windows, so their tokens span more than a
    // second. Receipt times add the SMTP handoff (the first message also opens the connection), hence the margin;
    // unpaced, all six arrive within a few tens of milliseconds.
    for (let i = 0; i + 4 < times.length; i++) expect(times[i + 4]! - times[i]!).toBeGreaterThan(700);
  });
});
