import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TrackBatcher } from '../../../src/modules/track/track.batcher.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { createPlunk } from '../../support/plunk.ts';

type Auth = { authorization: string };

const trackShape = z.object({
  success: z.literal(true),
  data: z.object({ contact: z.uuid(), event: z.uuid(), timestamp: z.iso.datetime({ offset: false, precision: 3 }) }),
});

describe('POST /v1/track', () => {
  let t: TestApp;
  let secret: Auth;
  let pub: Auth;

  const track = (payload: unknown, headers: Auth = secret, url = '/v1/track') =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const contactByEmail = async (email: string) =>
    (await t.app.inject({ method: 'GET', url: `/contacts?email=${email}`, headers: secret })).json().data.items[0];
  const eventsOf = async (contactId: string) =>
    (await t.app.inject({ method: 'GET', url: `/events?contactId=${contactId}`, headers: secret }))
      .json()
      .data.items.reverse() as { id: string; name: string; data: unknown }[];

  beforeAll(async () => {
    t = await createTestApp();
    const p = await t.createProject();
    secret = p.auth;
    pub = { authorization: `Bearer ${p.publicKey}` };
  });
  afterAll(() => t.close());

  it('creates the contact (subscribed by default) and records the event: {contact, event, timestamp}', async () => {
    const res = await track({ email: ' New@Example.com', event: 'signed-up', data: { plan: 'pro' } });
    expect(res.statusCode).toBe(200);
    const { data } = trackShape.parse(res.json());
    const contact = await contactByEmail('new@example.com');
    expect(contact).toMatchObject({ id: data.contact, subscribed: true, data: { plan: 'pro' } });
    const events = await eventsOf(data.contact);
    expect(events).toEqual([
      { id: data.event, name: 'signed-up', contactId: data.contact, data: { plan: 'pro' }, createdAt: data.timestamp },
    ]);
  });

  it('works with a public key, and under the /track alias', async () => {
    const viaPublic = trackShape.parse((await track({ email: 'pk@example.com', event: 'page' }, pub)).json());
    const viaAlias = trackShape.parse((await track({ email: 'pk@example.com', event: 'page' }, pub, '/track')).json());
    expect(viaAlias.data.contact).toBe(viaPublic.data.contact);
    expect(await eventsOf(viaPublic.data.contact)).toHaveLength(2);
  });

  it("leaves an existing contact's subscription alone unless a secret-key call gives it", async () => {
    const created = trackShape.parse((await track({ email: 'sub@example.com', event: 'a', subscribed: false })).json());
    expect((await contactByEmail('sub@example.com')).subscribed).toBe(false);
    await track({ email: 'sub@example.com', event: 'b' });
    expect((await contactByEmail('sub@example.com')).subscribed).toBe(false);
    // A public key is readable by anyone: it never re-subscribes (or unsubscribes) an existing contact.
    await track({ email: 'sub@example.com', event: 'c', subscribed: true }, pub);
    expect((await contactByEmail('sub@example.com')).subscribed).toBe(false);
    await track({ email: 'sub@example.com', event: 'd', subscribed: true });
    expect((await contactByEmail('sub@example.com')).subscribed).toBe(true);
    expect((await eventsOf(created.data.contact)).map((e) => e.name)).toEqual([
      'a',
      'b',
      'c',
      'contact.subscribed',
      'd',
    ]);
    // …but it may choose the subscription of a contact it creates.
    await track({ email: 'new-pk@example.com', event: 'a', subscribed: false }, pub);
    expect((await contactByEmail('new-pk@example.com')).subscribed).toBe(false);
  });

  it('puts {value, persistent: false} on the event only; every other value also on the contact', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: secret,
      payload: { email: 'data@example.com', data: { old: 1, gone: 'x' } },
    });
    const res = trackShape.parse(
      (
        await track({
          email: 'data@example.com',
          event: 'purchase',
          data: {
            orderId: { value: 'o-1', persistent: false },
            plan: { value: 'pro', persistent: true },
            city: 'Oslo',
            gone: null,
            nested: { value: 1 },
          },
        })
      ).json(),
    );
    const [event] = await eventsOf(res.data.contact);
    expect(event!.data).toEqual({ orderId: 'o-1', plan: 'pro', city: 'Oslo', gone: null, nested: { value: 1 } });
    expect((await contactByEmail('data@example.com')).data).toEqual({
      old: 1,
      plan: 'pro',
      city: 'Oslo',
      nested: { value: 1 },
    });
  });

  it('rejects reserved event names and bad input with 422', async () => {
    for (const event of ['email.sent', 'contact.subscribed', 'Email.Opened', 'CONTACT.x']) {
      expectValidation(await track({ email: 'r@example.com', event }), 'event');
    }
    for (const event of ['', '   ', 'x'.repeat(201), 'tab\there', 42, null])
      expectValidation(await track({ email: 'r@example.com', event }), 'event');
    expectValidation(await track({ event: 'x' }), 'email');
    expectValidation(await track({ email: 'not-an-email', event: 'x' }), 'email');
    expectValidation(await track({ email: 'r@example.com', event: 'x', subscribed: 'yes' }), 'subscribed');
    expectValidation(await track({ email: 'r@example.com', event: 'x', data: 'text' }), 'data');
    expectValidation(await track({ email: 'r@example.com', event: 'x', data: { blob: 'x'.repeat(70_000) } }), 'data');
    expectError(
      await track({ email: 'r@example.com', event: 'x', data: { blob: 'x'.repeat(300_000) } }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(await contactByEmail('r@example.com')).toBeUndefined();
  });

  it('asks for a key (401) and counts calls against the rate limit', async () => {
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/track', payload: { email: 'a@example.com', event: 'x' } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await track({ email: 'a@example.com', event: 'x' }, { authorization: 'Bearer pk_unknown' }),
      401,
      'UNAUTHORIZED',
    );
    const res = await track({ email: 'a@example.com', event: 'x' }, pub);
    // Public keys have buckets of their own; the tightest (per client address, 120 a minute) is announced.
    expect(res.headers['ratelimit-limit']).toBe('120');
    expect((await track({ email: 'a@example.com', event: 'x' }, secret)).headers['ratelimit-limit']).toBe('1000');
  });

  it('keeps one contact and every event under 20 parallel calls for a new address', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        track({ email: 'burst@example.com', event: 'click', data: { [`k${i}`]: i } }, i % 2 ? pub : secret),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const ids = new Set(responses.map((r) => r.json().data.contact));
    expect(ids.size).toBe(1);
    expect(await eventsOf([...ids][0])).toHaveLength(20);
    expect(Object.keys((await contactByEmail('burst@example.com')).data)).toHaveLength(20);
  });

  it('answers CORS preflights without a key and sends CORS headers on /v1/* and /track only', async () => {
    for (const url of ['/v1/track', '/track']) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
      expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const ok = await track({ email: 'cors@example.com', event: 'x' }, pub);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const denied = await t.app.inject({
      method: 'POST',
      url: '/v1/track',
      headers: { origin: 'https://shop.example' },
      payload: { email: 'a@example.com', event: 'x' },
    });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('*');
    const resource = await t.app.inject({
      method: 'GET',
      url: '/contacts',
      headers: { ...secret, origin: 'https://shop.example' },
    });
    expect(resource.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/contacts',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('TrackBatcher', () => {
  let t: TestApp;
  let projectId: string;
  const row = (email: string, data: Record<string, unknown> = {}) => ({
    email,
    defaultSubscribed: true,
    patch: data,
    event: { name: 'x', data },
  });

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject()).id;
  });
  afterAll(() => t.close());

  it('runs the calls of one event-loop turn as one write, one call per contact, in order', async () => {
    let statements = 0;
    const db = t.ctx.db;
    // Each batch is one upsert statement (in a transaction that also queues its webhook events).
    const counting = new Proxy(db, {
      get: (target, prop, receiver) =>
        prop === 'transaction'
          ? (...args: Parameters<typeof db.transaction>) => {
              statements++;
              return target.transaction(...args);
            }
          : Reflect.get(target, prop, receiver),
    });
    const batcher = new TrackBatcher(counting, { maxInFlight: 1, maxBatch: 100 });
    const emails = ['a@b.io', 'c@b.io', 'd@b.io', 'c@b.io', 'e@b.io'];
    const results = await Promise.all(
      emails.map((email, i) => batcher.upsert(projectId, row(email, { [`k${i}`]: i }))),
    );
    // a, c, d and e together; the second c after them.
    expect(statements).toBe(2);
    expect(results[0]!.at).toEqual(results[4]!.at);
    expect(results[1]!.contact.id).toBe(results[3]!.contact.id);
    expect(results[1]!.contact.data).toEqual({ k1: 1 });
    expect(results[3]!.contact.data).toEqual({ k1: 1, k3: 3 });
    expect(new Set(results.map((r) => r.eventId)).size).toBe(5);
  });

  it('starts a second statement beside a running one only for a full batch', async () => {
    const db = t.ctx.db;
    let running = 0;
    let most = 0;
    let statements = 0;
    const counting = new Proxy(db, {
      get: (target, prop, receiver) =>
        prop === 'transaction'
          ? async (...args: Parameters<typeof db.transaction>) => {
              statements++;
              most = Math.max(most, ++running);
              try {
                return await target.transaction(...args);
              } finally {
                running--;
              }
            }
          : Reflect.get(target, prop, receiver),
    });
    const batcher = new TrackBatcher(counting, { maxInFlight: 2, maxBatch: 3 });
    const burst = (prefix: string, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => batcher.upsert(projectId, row(`${prefix}${i}@b.io`))));
    // Five calls: three go first; the two left are no full batch, so they wait for the first statement.
    await burst('five', 5);
    expect([statements, most]).toEqual([2, 1]);
    // Seven: three first, and the four left hold a full batch, which starts beside it; the last waits.
    statements = most = 0;
    await burst('seven', 7);
    expect([statements, most]).toEqual([3, 2]);
  });

  it('fails only the call that fails when its statement is shared', async () => {
    const batcher = new TrackBatcher(t.ctx.db, { maxInFlight: 1, maxBatch: 100 });
    await batcher.upsert(projectId, row('full@b.io', { big: 'x'.repeat(40_000) }));
    const calls = ['m1@b.io', 'full@b.io', 'm2@b.io'].map((email) =>
      batcher.upsert(projectId, row(email, email === 'full@b.io' ? { more: 'y'.repeat(40_000) } : { ok: true })).then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    expect(await Promise.all(calls)).toEqual(['ok', "The contact's data would exceed 64 KB as JSON", 'ok']);
  });
});

describe('the Plunk Node SDK against a listening server', () => {
  let t: TestApp;
  let baseUrl: string;
  let keys: { secretKey: string; publicKey: string; auth: Auth };

  beforeAll(async () => {
    t = await createTestApp();
    keys = await t.createProject();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}/v1/`;
  });
  afterAll(() => t.close());

  it('tracks events with a public and a secret key, persistent values included', async () => {
    const result = await createPlunk(keys.publicKey, baseUrl).events.track({
      event: 'sdk-signup',
      email: 'SDK@example.com',
      data: { plan: 'pro', ref: { value: 'ad-7', persistent: false } },
    });
    expect(result).toMatchObject({ success: true, data: { contact: expect.any(String), event: expect.any(String) } });
    await createPlunk(keys.secretKey, baseUrl).events.track({
      event: 'sdk-login',
      email: 'sdk@example.com',
      subscribed: false,
    });
    const contact = (
      await t.app.inject({ method: 'GET', url: '/contacts?email=sdk@example.com', headers: keys.auth })
    ).json().data.items[0];
    expect(contact).toMatchObject({ subscribed: false, data: { plan: 'pro' } });
    const names = (await t.app.inject({ method: 'GET', url: '/events/names', headers: keys.auth }))
      .json()
      .data.items.map((n: { name: string }) => n.name);
    expect(names).toEqual(['contact.unsubscribed', 'sdk-login', 'sdk-signup']);
  });

  it("surfaces our error messages through the SDK's errors", async () => {
    await expect(
      createPlunk(keys.publicKey, baseUrl).events.track({ event: 'email.sent', email: 'sdk@example.com' }),
    ).rejects.toThrow(/event: names starting with "email\.", "contact\." or "segment\." are reserved/);
    const denied = await createPlunk('sk_wrong', baseUrl)
      .events.track({ event: 'x', email: 'sdk@example.com' })
      .catch((error: Error) => error);
    expect(denied).toBeInstanceOf(Error);
    expect([(denied as Error).constructor.name, (denied as Error).message]).toEqual([
      'TokenError',
      'Invalid or revoked API key',
    ]);
  });
});
