// One tenant's slow endpoint must not slow another's webhooks: two senders (two app instances with
// their workers on one database, two lease owners) serve project A's endpoint, which answers late or never, and
// project B's, which answers at once. B's deliveries arrive and settle while A's attempt is still open; A's go one
// at a time and in order; no webhook-id is sent again while its attempt is in flight; every row ends settled.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';

interface Delivery {
  id: string;
  status: string;
  attempts: number;
}
interface Tenant {
  auth: { authorization: string };
  endpointId: string;
}

const idOf = (w: ReceivedWebhook) => String(w.headers['webhook-id']);
const emailOf = (w: ReceivedWebhook) => String(w.json.data.email);

/** No request of `received` began before another one (of the same id, or any when `all`) had ended. */
function expectNoOverlap(received: ReceivedWebhook[], all: boolean): void {
  const sorted = [...received].sort((x, y) => x.at.getTime() - y.at.getTime());
  const overlaps: string[] = [];
  for (const [i, later] of sorted.entries()) {
    for (const earlier of sorted.slice(0, i)) {
      if (!all && idOf(earlier) !== idOf(later)) continue;
      if (earlier.endedAt === null || earlier.endedAt > later.at)
        overlaps.push(
          `${emailOf(later)} (${idOf(later)}) sent while ${emailOf(earlier)} (${idOf(earlier)}) was in flight`,
        );
    }
  }
  expect(overlaps).toEqual([]);
}

describe(`a slow webhook endpoint delays no other tenant (${testDatabaseKind}, two senders)`, () => {
  const env = { WEBHOOK_ALLOW_PRIVATE: 'true' };
  let api: TestApp;
  const senders: TestApp[] = [];
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    api = await createTestApp({ env });
  });
  afterEach(async () => {
    for (const r of receivers) r.release();
    for (const s of senders.splice(0)) await s.close();
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Two more instances on the same database, each with its workers: two webhook senders, two lease owners. */
  async function startSenders(): Promise<void> {
    const shared =
      api.testDb.kind === 'postgres' ? { database: api.testDb } : { database: api.testDb, handle: api.ctx.database };
    for (let i = 0; i < 2; i++) senders.push(await createTestApp({ ...shared, worker: true, env }));
  }
  async function tenant(receiver: WebhookReceiver): Promise<Tenant> {
    const { auth } = await api.createProject();
    const res = await api.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: auth,
      payload: { url: receiver.url, events: ['contact.created'] },
    });
    expect(res.statusCode).toBe(201);
    return { auth, endpointId: res.json().data.id };
  }
  async function receiver(): Promise<WebhookReceiver> {
    const r = await startWebhookReceiver();
    receivers.push(r);
    return r;
  }
  /** A contact.created event, queued with its delivery in the request's transaction. */
  async function event(t: Pick<Tenant, 'auth'>, email: string): Promise<void> {
    const res = await api.app.inject({ method: 'POST', url: '/contacts', headers: t.auth, payload: { email } });
    expect(res.statusCode, res.body).toBe(201);
  }
  async function deliveries(t: Tenant): Promise<Delivery[]> {
    return (
      await api.app.inject({ method: 'GET', url: `/webhooks/${t.endpointId}/deliveries?limit=100`, headers: t.auth })
    ).json().data.items;
  }
  const allSettled = (t: Tenant, count: number, status = ['SUCCEEDED']) =>
    until(
      async () => {
        const list = await deliveries(t);
        return list.length === count && list.every((d) => status.includes(d.status)) ? list : null;
      },
      `${count} deliveries of ${t.endpointId} settled`,
      60_000,
    );

  it(
    "B's deliveries arrive and are settled while A's first attempt is still open; A's " + 'then go in order, once each',
    async () => {
      const slow = await receiver();
      const fast = await receiver();
      const a = await tenant(slow);
      const b = await tenant(fast);
      await startSenders();
      slow.hold();
      for (const n of [1, 2, 3]) await event(a, `a${n}@dest.test`);
      const [first] = await slow.waitFor(1);

      for (const n of [1, 2, 3, 4]) {
        await event(b, `b${n}@dest.test`);
        await fast.waitFor(n);
        await allSettled(b, n);
      }
      // All of B's went out and were settled before A's first attempt ended, and A's next ones waited behind it.
      expect(first!.endedAt).toBeNull();
      expect(slow.received).toHaveLength(1);

      slow.release();
      const got = await slow.waitFor(3);
      expect(got.map(emailOf)).toEqual(['a1@dest.test', 'a2@dest.test', 'a3@dest.test']);
      expect((await allSettled(a, 3)).map((d) => d.attempts)).toEqual([1, 1, 1]);
      for (const r of [slow, fast]) expect(new Set(r.received.map(idOf)).size).toBe(r.received.length);
      expectNoOverlap(slow.received, true);
    },
  );

  it(
    'a tenant with more slow endpoints than the senders have slots gets four served ' + 'at once, and B still goes out',
    async () => {
      const slow = await receiver();
      const fast = await receiver();
      const { auth } = await api.createProject();
      const endpoints = 40; // more than two senders' 32 slots
      for (let n = 0; n < endpoints; n++) {
        const res = await api.app.inject({
          method: 'POST',
          url: '/webhooks',
          headers: auth,
          payload: { url: `${slow.url}/${n}`, events: ['contact.created'] },
        });
        expect(res.statusCode).toBe(201);
      }
      const b = await tenant(fast);
      slow.hold();
      await event({ auth }, 'many@dest.test'); // one delivery per endpoint
      await startSenders();
      await slow.waitFor(4);
      await event(b, 'between@dest.test');
      await fast.waitFor(1);
      await allSettled(b, 1);
      // B went out while A's first four attempts hung; no more of A's were started meanwhile.
      expect(slow.received.filter((w) => w.endedAt === null)).toHaveLength(4);
      expect(slow.received).toHaveLength(4);

      slow.release();
      await slow.waitFor(endpoints);
      expect(new Set(slow.received.map(idOf)).size).toBe(endpoints);
    },
  );

  it(
    'with A never answering within the 10 s deadline for longer than a lease, nothing ' +
      'is sent again while in flight and no row stays PENDING',
    { timeout: 300_000 },
    async () => {
      const slow = await receiver();
      const fast = await receiver();
      const a = await tenant(slow);
      const b = await tenant(fast);
      slow.hold(); // every attempt at A ends at the sender's deadline, until the release below
      // Eight 10-second attempts one after another: more than a 60-second lease of work behind A's endpoint.
      const count = 8;
      for (let n = 1; n <= count; n++) await event(a, `slow${n}@dest.test`);
      await event(b, 'fast1@dest.test');
      await startSenders(); // with all of it queued: one claim could take every delivery at once

      const [firstA] = await slow.waitFor(1);
      const [onlyB] = await fast.waitFor(1);
      expect(onlyB!.at.getTime()).toBeLessThanOrEqual((firstA!.endedAt ?? new Date()).getTime());

      await until(
        async () => new Set(slow.received.map(idOf)).size >= count,
        `${count} of A's deliveries attempted`,
        200_000,
      );
      // Each A delivery went out once before its retries, one at a time; B's once.
      expectNoOverlap(slow.received, true);
      expect(slow.received.slice(0, count).map(emailOf)).toEqual(
        Array.from({ length: count }, (_, i) => `slow${i + 1}@dest.test`),
      );
      expect(fast.received.map(idOf)).toEqual([idOf(onlyB!)]);
      await allSettled(b, 1);

      slow.release();
      const settled = await allSettled(a, count, ['SUCCEEDED', 'FAILED']);
      expect(settled.every((d) => d.status === 'SUCCEEDED')).toBe(true);
      expectNoOverlap(slow.received, true);
      expect(fast.received).toHaveLength(1);
      expect((await deliveries(b))[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    },
  );
});
