/**
 * Mail is held, not sent and not lost, while its project is disabled or its sender domain lost its
 * verification; it goes out as soon as that is undone, and a lapsed domain's mail fails after 72 h.
 * Mail is queued by an API-only instance, then a worker instance on the same database takes over.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { publishDomainRecords } from '../../support/dns-server.ts';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

describe('held mail', () => {
  let m: MailFixture;
  let worker: TestApp;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
  });
  afterAll(async () => {
    await worker?.close();
    await m.close();
  });

  async function statusOf(id: string): Promise<{ status: string; status_reason: string | null }> {
    return rowsOf<{ status: string; status_reason: string | null }>(
      await m.t.ctx.db.execute(sql`SELECT status, status_reason FROM emails WHERE id = ${id}::uuid`),
    )[0]!;
  }

  it("holds a disabled project's mail and a lapsed domain's mail, and sends both once released", async () => {
    const off = await m.verifiedDomain('paused.test');
    const lapsing = await m.verifiedDomain('lapsing.test');
    const send = async (auth: { authorization: string }, from: string, to: string) => {
      const res = await m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: auth,
        payload: { to, from, subject: 's', body: 'b' },
      });
      expect(res.statusCode).toBe(200);
      return res.json().data.emails[0].email as string;
    };
    const paused = await send(off.auth, 'hi@paused.test', 'a@dest.test');
    const lapsed = await send(lapsing.auth, 'hi@lapsing.test', 'b@dest.test');
    const expired = await send(lapsing.auth, 'hi@lapsing.test', 'c@dest.test');

    // The project is disabled, the other project's domain loses its DNS records and is checked again.
    expect(
      (
        await m.t.app.inject({
          method: 'PATCH',
          url: `/admin/projects/${off.project.id}`,
          headers: m.t.admin,
          payload: { disabled: true },
        })
      ).statusCode,
    ).toBe(200);
    const records = (
      await m.t.app.inject({ method: 'GET', url: `/domains/${lapsing.domainId}`, headers: lapsing.auth })
    ).json().data.records as { name: string; type: string; value: string; values?: string[] }[];
    for (const r of records) m.dns.setRecords(r.name, []);
    const check = await m.t.app.inject({
      method: 'POST',
      url: `/domains/${lapsing.domainId}/verify`,
      headers: lapsing.auth,
    });
    expect(check.json().data.status).toBe('TEMPORARY_FAILURE');

    const shared =
      m.t.testDb.kind === 'postgres' ? { database: m.t.testDb } : { database: m.t.testDb, handle: m.t.ctx.database };
    worker = await createTestApp({
      ...shared,
      worker: true,
      env: { SMTP_URL: m.sink.url, DNS_SERVERS: m.dns.address, SEND_RATE_PER_SECOND: '0' },
    });
    await until(
      async () => (await statusOf(paused)).status_reason === 'HELD_PROJECT_DISABLED',
      "the paused project's email held",
      30_000,
    );
    await until(
      async () =>
        (await statusOf(lapsed)).status_reason === 'HELD_DOMAIN_NOT_VERIFIED' &&
        (await statusOf(expired)).status_reason === 'HELD_DOMAIN_NOT_VERIFIED',
      "the lapsed domain's emails held",
      30_000,
    );

    // 73 hours later (the lapse moved back), the held email that is looked at again fails.
    await m.t.ctx.db.execute(
      sql`UPDATE domains SET lapsed_at = now() - interval '73 hours' WHERE id = ${lapsing.domainId}::uuid`,
    );
    await m.t.ctx.db.execute(sql`UPDATE emails SET next_attempt_at = now() WHERE id = ${expired}::uuid`);
    await until(async () => (await statusOf(expired)).status === 'FAILED', 'the expired email failed', 30_000);
    expect(await statusOf(expired)).toEqual({ status: 'FAILED', status_reason: 'DOMAIN_NOT_VERIFIED' });
    expect(await statusOf(paused)).toEqual({ status: 'QUEUED', status_reason: 'HELD_PROJECT_DISABLED' });
    expect(await statusOf(lapsed)).toEqual({ status: 'QUEUED', status_reason: 'HELD_DOMAIN_NOT_VERIFIED' });
    await new Promise((r) => setTimeout(r, 500));
    expect(m.sink.messages).toHaveLength(0);

    // Enabling the project releases its mail at once (no wait for the hold's re-check).
    expect(
      (
        await m.t.app.inject({
          method: 'PATCH',
          url: `/admin/projects/${off.project.id}`,
          headers: m.t.admin,
          payload: { disabled: false },
        })
      ).statusCode,
    ).toBe(200);
    await until(async () => (await statusOf(paused)).status === 'SENT', "the paused project's email sent", 30_000);
    expect(m.sink.messages.map((msg) => msg.to[0])).toEqual(['a@dest.test']);

    // Publishing the records again and verifying releases the domain's mail.
    publishDomainRecords(m.dns, records);
    const again = await m.t.app.inject({
      method: 'POST',
      url: `/domains/${lapsing.domainId}/verify`,
      headers: lapsing.auth,
    });
    expect(again.json().data.status).toBe('VERIFIED');
    await until(async () => (await statusOf(lapsed)).status === 'SENT', "the lapsed domain's email sent", 30_000);
    expect(m.sink.messages.map((msg) => msg.to[0]).sort()).toEqual(['a@dest.test', 'b@dest.test']);
  }, 90_000);
});
