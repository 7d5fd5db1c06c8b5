/**
 * The delivery engine's guarantees, on the real database and a real SMTP sink: batch claims never hand one
 * email to two workers, an expired lease is reclaimed (and its old owner can no longer settle it), a
 * database failure after the SMTP server accepted a message makes the engine retry the recording, never
 * the send, and GET /metrics shows what happened.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimEmails } from '../../../src/modules/emails/emails.claim.ts';
import { recordSent } from '../../../src/modules/emails/emails.settle.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function queueMany(
  m: MailFixture,
  auth: { authorization: string },
  count: number,
  from = 'hello@example.test',
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 50) {
    const to = Array.from({ length: Math.min(50, count - start) }, (_, i) => `r${start + i}@dest.test`);
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: { to, from, subject: 's', body: 'b' },
    });
    expect(res.statusCode).toBe(200);
    ids.push(...(res.json().data.emails as { email: string }[]).map((e) => e.email));
  }
  return ids;
}

describe('claims and leases (no worker running)', () => {
  let m: MailFixture;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
  });
  afterAll(() => m.close());

  it('hands every due email to exactly one of three concurrent claimers', async () => {
    const sender = await m.verifiedDomain('example.test');
    const ids = await queueMany(m, sender.auth, 300);
    const owners = ['w1', 'w2', 'w3'];
    const got = new Map<string, string[]>(owners.map((o) => [o, []]));
    await Promise.all(
      owners.map(async (owner) => {
        for (;;) {
          const claimed = await claimEmails(m.t.ctx.db, { owner, limit: 17, leaseSeconds: 60 });
          if (claimed.length === 0) return;
          got.get(owner)!.push(...claimed.map((c) => c.email.id));
        }
      }),
    );
    const all = owners.flatMap((o) => got.get(o)!);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(new Set(ids));
    // Each claim is the owner's: the rows say so.
    const rows = rowsOf<{ lease_owner: string; n: number }>(
      await m.t.ctx.db.execute(
        sql`SELECT lease_owner, count(*)::int AS n FROM emails WHERE status = 'SENDING' GROUP BY lease_owner`,
      ),
    );
    expect(Object.fromEntries(rows.map((r) => [r.lease_owner, Number(r.n)]))).toEqual(
      Object.fromEntries(owners.map((o) => [o, got.get(o)!.length])),
    );
  });

  it('reclaims an email whose lease expired; its old owner cannot settle it any more', async () => {
    const sender = await m.verifiedDomain('lease.test');
    const [id] = await queueMany(m, sender.auth, 1, 'hello@lease.test');
    const first = await claimEmails(m.t.ctx.db, { owner: 'dead-worker', limit: 10, leaseSeconds: 1 });
    expect(first.map((c) => c.email.id)).toEqual([id]);
    // While the lease runs, nobody else gets it.
    expect(await claimEmails(m.t.ctx.db, { owner: 'other', limit: 10, leaseSeconds: 60 })).toEqual([]);
    await new Promise((r) => setTimeout(r, 1200));
    const again = await claimEmails(m.t.ctx.db, { owner: 'other', limit: 10, leaseSeconds: 60 });
    expect(again.map((c) => [c.email.id, c.reclaimed, c.email.attempts])).toEqual([[id, true, 2]]);
    expect(await recordSent(m.t.ctx.db, 'dead-worker', [{ email: first[0]!.email, response: '250 late' }])).toBe(0);
    expect(await recordSent(m.t.ctx.db, 'other', [{ email: again[0]!.email, response: '250 ok' }])).toBe(1);
    const res = await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: sender.auth });
    expect(res.json().data).toMatchObject({ status: 'SENT' });
  });
});

describe('the handoff is recorded, never repeated', () => {
  let m: MailFixture;

  beforeAll(async () => {
    m = await startMailFixture({ env: { SEND_LEASE_SECONDS: '3' } });
  });
  afterAll(() => m.close());

  it('sends once when the database refuses to record the sent message for a while', async () => {
    const sender = await m.verifiedDomain('example.test');
    const db = m.t.ctx.db;
    // The database itself refuses the SENT transition until the trigger is dropped.
    await db.execute(
      sql.raw(`CREATE FUNCTION test_refuse_sent() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'recording refused by the test'; END $$`),
    );
    await db.execute(
      sql.raw(
        `CREATE TRIGGER test_refuse_sent BEFORE UPDATE ON emails FOR EACH ` +
          `ROW WHEN (NEW.status = 'SENT') EXECUTE FUNCTION test_refuse_sent()`,
      ),
    );
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to: 'once@dest.test', from: 'hello@example.test', subject: 's', body: 'b' },
    });
    const emailId = res.json().data.emails[0].email as string;
    await m.sink.waitForMessages(1);
    // Wait until the engine tried (and failed) to record it at least twice, across more than a lease.
    const retries = async () => {
      const text = (await m.t.app.inject({ method: 'GET', url: '/metrics', headers: m.t.admin })).body;
      return Number(/^herald_delivery_record_retries_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    for (let i = 0; (await retries()) < 3; i++) {
      if (i > 200) throw new Error('the engine never tried to record the sent email');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 3500)); // longer than the lease: renewals keep it ours
    const during = await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth });
    expect(during.json().data.status).toBe('SENDING');
    await db.execute(sql.raw('DROP TRIGGER test_refuse_sent ON emails'));
    const email = await m.waitForStatus(sender.auth, emailId, ['SENT']);
    expect(email.status).toBe('SENT');
    await new Promise((r) => setTimeout(r, 500));
    expect(m.sink.messages.filter((msg) => msg.to.includes('once@dest.test'))).toHaveLength(1);
  });

  it('answers GET /metrics in the Prometheus format, only with the admin token', async () => {
    expect((await m.t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const project = await m.t.createProject();
    expect((await m.t.app.inject({ method: 'GET', url: '/metrics', headers: project.auth })).statusCode).toBe(401);
    const res = await m.t.app.inject({ method: 'GET', url: '/metrics', headers: m.t.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    for (const name of [
      'herald_emails{status="SENT"}',
      'herald_delivery_due ',
      'herald_delivery_oldest_due_seconds ',
      'herald_delivery_claims_total ',
      'herald_delivery_claim_batch_size_bucket',
      'herald_delivery_sends_total{transport="smtp",outcome="sent"}',
      'herald_delivery_handoff_seconds_bucket',
      'herald_delivery_pacing_waits_total ',
      'herald_delivery_lease_reclaims_total ',
    ]) {
      expect(res.body).toContain(name);
    }
  });
});
