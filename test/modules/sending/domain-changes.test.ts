/**
 * A worker keeps the sender domains it signs with, but never past a change: mail queued for a domain that is
 * then deleted or lapses (changed through the API, in another instance on the same database) is not signed and
 * sent with the row the worker read before; it fails or is held, as for a domain that was never verified.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

describe('a changed sender domain in a worker that cached it', () => {
  let m: MailFixture;
  let worker: TestApp;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
  });
  afterAll(async () => {
    await worker?.close();
    await m.close();
  });

  /** The key of each email's project. */
  const projects = new Map<string, { authorization: string }>();
  /** An email's status and reason, as the API reads them. */
  async function statusOf(id: string): Promise<{ status: string; statusReason: string | null }> {
    const { status, statusReason } = (
      await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: projects.get(id)! })
    ).json().data;
    return { status, statusReason };
  }
  /** Makes a parked email due now (the test parks mail so that it is claimed only after the change). */
  const release = (id: string) =>
    m.t.ctx.db.execute(sql`UPDATE emails SET next_attempt_at = now() WHERE id = ${id}::uuid`);

  it('fails the next message of a deleted domain and holds the next one of a lapsed domain', async () => {
    const deleting = await m.verifiedDomain('deleting.test');
    const lapsing = await m.verifiedDomain('lapsing.test');
    const send = async (auth: { authorization: string }, from: string, to: string) => {
      const res = await m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: auth,
        payload: { to, from, subject: 's', body: 'b' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.emails[0].email as string;
      projects.set(id, auth);
      return id;
    };
    // Queued while no worker runs: a first message per domain, and a second one parked for an hour.
    const firstDeleted = await send(deleting.auth, 'hi@deleting.test', 'a@dest.test');
    const firstLapsed = await send(lapsing.auth, 'hi@lapsing.test', 'b@dest.test');
    const nextDeleted = await send(deleting.auth, 'hi@deleting.test', 'c@dest.test');
    const nextLapsed = await send(lapsing.auth, 'hi@lapsing.test', 'd@dest.test');
    await m.t.ctx.db.execute(
      sql`UPDATE emails SET next_attempt_at = now() + interval '1 hour' WHERE id IN (${nextDeleted}::uuid,
        ${nextLapsed}::uuid)`,
    );

    // The worker signs the first messages with each domain, which it now holds in its cache.
    const shared =
      m.t.testDb.kind === 'postgres' ? { database: m.t.testDb } : { database: m.t.testDb, handle: m.t.ctx.database };
    worker = await createTestApp({
      ...shared,
      worker: true,
      env: { SMTP_URL: m.sink.url, DNS_SERVERS: m.dns.address, SEND_RATE_PER_SECOND: '0' },
    });
    await until(
      async () => (await statusOf(firstDeleted)).status === 'SENT' && (await statusOf(firstLapsed)).status === 'SENT',
      'the first messages sent',
      30_000,
    );

    // Through the API instance: one domain is deleted, the other loses its DNS records and is checked again.
    expect(
      (await m.t.app.inject({ method: 'DELETE', url: `/domains/${deleting.domainId}`, headers: deleting.auth }))
        .statusCode,
    ).toBe(200);
    const records = (
      await m.t.app.inject({ method: 'GET', url: `/domains/${lapsing.domainId}`, headers: lapsing.auth })
    ).json().data.records as { name: string }[];
    for (const r of records) m.dns.setRecords(r.name, []);
    const check = await m.t.app.inject({
      method: 'POST',
      url: `/domains/${lapsing.domainId}/verify`,
      headers: lapsing.auth,
    });
    expect(check.json().data.status).toBe('TEMPORARY_FAILURE');

    await release(nextDeleted);
    await release(nextLapsed);
    // Each is settled one way or another (sent with the old row, failed, or held), then compared.
    const settled = async (id: string) => {
      const { status, statusReason: reason } = await statusOf(id);
      return status === 'SENT' || status === 'FAILED' || reason === 'HELD_DOMAIN_NOT_VERIFIED';
    };
    await until(
      async () => (await settled(nextDeleted)) && (await settled(nextLapsed)),
      'the next messages settled',
      30_000,
    );
    expect(await statusOf(nextDeleted)).toEqual({ status: 'FAILED', statusReason: 'DOMAIN_NOT_FOUND' });
    expect(await statusOf(nextLapsed)).toEqual({ status: 'QUEUED', statusReason: 'HELD_DOMAIN_NOT_VERIFIED' });
    expect(m.sink.messages.map((msg) => msg.to[0]).sort()).toEqual(['a@dest.test', 'b@dest.test']);

    // The worker heard both changes (GET /metrics of the worker's process).
    const metrics = await worker.app.inject({ method: 'GET', url: '/metrics', headers: worker.admin });
    expect(Number(/^herald_delivery_domain_cache_clears_total (\d+)/m.exec(metrics.body)?.[1])).toBeGreaterThanOrEqual(
      2,
    );
  }, 90_000);
});
