import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation, stableError } from '../../support/envelope.ts';

type Auth = { authorization: string };

const contactShape = z.object({
  id: z.uuid(),
  email: z.string(),
  emailUnicode: z.string(),
  subscribed: z.boolean(),
  subscription: z.enum(['subscribed', 'unsubscribed', 'never_subscribed']),
  data: z.record(z.string(), z.unknown()),
  locale: z.string().nullable(),
  confirmation: z.object({
    status: z.enum(['NONE', 'PENDING', 'CONFIRMED']),
    sentAt: z.iso.datetime({ offset: false, precision: 3 }).nullable(),
    confirmedAt: z.iso.datetime({ offset: false, precision: 3 }).nullable(),
  }),
  engagement: z.object({
    level: z.enum(['new', 'engaged', 'at_risk', 'dormant']),
    score: z.number().int(),
    lastHumanOpenAt: z.string().nullable(),
    lastHumanClickAt: z.string().nullable(),
  }),
  snoozedUntil: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: false, precision: 3 }),
  updatedAt: z.iso.datetime({ offset: false, precision: 3 }),
});

describe('contacts', () => {
  let t: TestApp;
  let auth: Auth;
  let other: Auth;
  let publicAuth: Auth;

  const post = (payload: unknown, headers: Auth = auth) =>
    t.app.inject({ method: 'POST', url: '/contacts', headers, payload: payload as object });
  const get = (url: string, headers: Auth = auth) => t.app.inject({ method: 'GET', url, headers });
  const patch = (id: string, payload: unknown, headers: Auth = auth) =>
    t.app.inject({ method: 'PATCH', url: `/contacts/${id}`, headers, payload: payload as object });
  const create = async (payload: Record<string, unknown>, headers: Auth = auth) => {
    const res = await post(payload, headers);
    expect(res.statusCode, res.body).toBe(201);
    return contactShape.parse(res.json().data);
  };
  const eventNames = async (contactId: string) =>
    ((await get(`/events?contactId=${contactId}`)).json().data.items as { name: string }[])
      .map((e) => e.name)
      .reverse();

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.createProject('A');
    auth = a.auth;
    publicAuth = { authorization: `Bearer ${a.publicKey}` };
    other = (await t.createProject('B')).auth;
  });
  afterAll(() => t.close());

  it('creates a contact with the email trimmed and lower-cased, subscribed by default: 201 with _meta', async () => {
    const res = await post({ email: '  Ada.Lovelace@Example.COM ', data: { name: 'Ada' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(contactShape.parse(body.data)).toMatchObject({
      email: 'ada.lovelace@example.com',
      subscribed: true,
      data: { name: 'Ada' },
    });
    expect(body.data._meta).toEqual({ isNew: true, isUpdate: false });
  });

  it('updates the contact with that email (in any case): 200, only the fields given change', async () => {
    const first = await create({ email: 'grace@example.com', subscribed: false, data: { a: 1 } });
    const res = await post({ email: 'GRACE@example.com', data: { b: 2 } });
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body).toMatchObject({
      id: first.id,
      email: 'grace@example.com',
      subscribed: false,
      data: { a: 1, b: 2 },
      createdAt: first.createdAt,
    });
    expect(body._meta).toEqual({ isNew: false, isUpdate: true });
    const flipped = await post({ email: 'grace@example.com', subscribed: true });
    expect(flipped.json().data).toMatchObject({ subscribed: true, data: { a: 1, b: 2 } });
  });

  it('merges data key by key: null deletes a key, nested objects are kept as given', async () => {
    const c = await create({
      email: 'merge@example.com',
      data: { keep: 'x', drop: 1, nested: { a: 1, b: { c: null } }, list: [1, 2] },
    });
    const res = await post({
      email: 'merge@example.com',
      data: { drop: null, nested: { z: null }, added: true, missing: null },
    });
    expect(res.json().data.data).toEqual({ keep: 'x', nested: { z: null }, list: [1, 2], added: true });
    const patched = await patch(c.id, { data: { keep: null, list: [3] } });
    expect(patched.json().data.data).toEqual({ nested: { z: null }, list: [3], added: true });
  });

  it('keeps one row and loses no write under 20 parallel upserts of the same address', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post({ email: i % 2 ? 'RACE@example.com' : ' race@EXAMPLE.com', data: { [`k${i}`]: i } }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(responses.map((r) => r.json().data.id)).size).toBe(1);
    const list = (await get('/contacts?email=race@example.com')).json().data;
    expect(list.total).toBe(1);
    expect(Object.keys(list.items[0].data)).toHaveLength(20);
  });

  it('rejects invalid emails and wrong types with 422 naming the field', async () => {
    for (const email of [
      '',
      'nope',
      'a@b',
      'a b@example.com',
      'a@@example.com',
      42,
      null,
      'x'.repeat(250) + '@example.com',
    ]) {
      expectValidation(await post({ email }), 'email');
    }
    expectValidation(await post({}), 'email');
    expectValidation(await post({ email: 'ok@example.com', subscribed: 'yes' }), 'subscribed');
    expectValidation(await post({ email: 'ok@example.com', data: 'text' }), 'data');
    expectValidation(await post({ email: 'ok@example.com', data: [1, 2] }), 'data');
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      400,
      'BAD_REQUEST',
    );
    expect((await get('/contacts?email=ok@example.com')).json().data.total).toBe(0);
  });

  it('caps data at 64 KB, for one request and for the merged result', async () => {
    expectValidation(await post({ email: 'big@example.com', data: { blob: 'x'.repeat(70_000) } }), 'data');
    const c = await create({ email: 'big@example.com', data: { one: 'x'.repeat(40_000) } });
    expectValidation(await post({ email: 'big@example.com', data: { two: 'y'.repeat(40_000) } }), 'data');
    expectValidation(await patch(c.id, { data: { two: 'y'.repeat(40_000) } }), 'data');
    expect(Object.keys((await get(`/contacts/${c.id}`)).json().data.data)).toEqual(['one']);
  });

  it('gets, patches (email, subscribed, data; {} is accepted) and deletes a contact with its events', async () => {
    const c = await create({ email: 'crud@example.com', data: { a: 1 } });
    expect((await get(`/contacts/${c.id}`)).json()).toEqual({ success: true, data: c });

    const unchanged = await patch(c.id, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().data).toEqual(c);

    const res = await patch(c.id, { email: ' New.Address@Example.com', subscribed: false, data: { b: 2 } });
    expect(res.statusCode).toBe(200);
    const updated = contactShape.parse(res.json().data);
    expect(updated).toMatchObject({
      id: c.id,
      email: 'new.address@example.com',
      subscribed: false,
      data: { a: 1, b: 2 },
      createdAt: c.createdAt,
    });
    expect(updated.updatedAt > c.updatedAt).toBe(true);

    await t.app.inject({
      method: 'POST',
      url: '/v1/track',
      headers: auth,
      payload: { email: 'new.address@example.com', event: 'login' },
    });
    expect((await get(`/events?contactId=${c.id}`)).json().data.total).toBe(2);
    const del = await t.app.inject({ method: 'DELETE', url: `/contacts/${c.id}`, headers: auth });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, data: { id: c.id, deleted: true } });
    expectError(await get(`/contacts/${c.id}`), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'DELETE', url: `/contacts/${c.id}`, headers: auth }), 404, 'NOT_FOUND');
    expect((await get(`/events?contactId=${c.id}`)).json().data.total).toBe(0);
  });

  it('answers 409 when PATCH gives the email of another contact', async () => {
    await create({ email: 'taken@example.com' });
    const c = await create({ email: 'mover@example.com' });
    expectError(await patch(c.id, { email: 'TAKEN@example.com' }), 409, 'CONFLICT');
    expect((await patch(c.id, { email: 'mover@example.com' })).statusCode).toBe(200);
    expectValidation(await patch(c.id, { email: 'not-an-email' }), 'email');
    expectValidation(await patch(c.id, { subscribed: 'no' }), 'subscribed');
  });

  it(
    'records contact.subscribed / contact.unsubscribed on every flip, from every ' + 'endpoint, and only then',
    async () => {
      const c = await create({ email: 'flips@example.com' });
      await post({ email: 'flips@example.com', subscribed: true });
      await post({ email: 'flips@example.com', subscribed: false });
      await patch(c.id, { subscribed: false });
      await patch(c.id, { subscribed: true });
      await t.app.inject({
        method: 'POST',
        url: '/v1/track',
        headers: auth,
        payload: { email: 'flips@example.com', event: 'x', subscribed: false },
      });
      expect(await eventNames(c.id)).toEqual([
        'contact.unsubscribed',
        'contact.subscribed',
        'contact.unsubscribed',
        'x',
      ]);
    },
  );

  it(
    'lists newest first with cursor pages, a total on every page, and the ' + 'subscribed/search/email filters',
    async () => {
      const p = await t.createProject('list');
      const made = [];
      for (let i = 0; i < 5; i++)
        made.push(await create({ email: `user${i}@List.example`, subscribed: i % 2 === 0 }, p.auth));
      made.reverse();
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`/contacts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, p.auth);
        const data = res.json().data;
        expect(data.total).toBe(5);
        expect(data.hasMore).toBe(data.nextCursor !== null);
        seen.push(...data.items.map((c: { id: string }) => c.id));
        cursor = data.nextCursor;
      } while (cursor);
      expect(seen).toEqual(made.map((c) => c.id));

      const unsubscribed = (await get('/contacts?subscribed=false', p.auth)).json().data;
      expect(unsubscribed.total).toBe(2);
      expect(unsubscribed.items.every((c: { subscribed: boolean }) => !c.subscribed)).toBe(true);
      expect((await get('/contacts?subscribed=true&limit=1', p.auth)).json().data).toMatchObject({
        total: 3,
        hasMore: true,
      });
      expect(
        (await get('/contacts?search=USER3', p.auth)).json().data.items.map((c: { email: string }) => c.email),
      ).toEqual(['user3@list.example']);
      expect((await get('/contacts?search=list.EXAMPLE', p.auth)).json().data.total).toBe(5);
      expect((await get('/contacts?search=%25', p.auth)).json().data.total).toBe(0);
      expect(
        (await get(`/contacts?email=${encodeURIComponent(' USER1@list.example')}`, p.auth)).json().data.items,
      ).toHaveLength(1);
      expect((await get('/contacts?email=user1@list', p.auth)).json().data.total).toBe(0);
    },
  );

  it('answers 422 for a limit out of range, a malformed cursor or filter, never a 500', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'cursor=garbage',
      `cursor=${Buffer.from('["x","y"]').toString('base64url')}`,
      'subscribed=maybe',
    ]) {
      const res = await get(`/contacts?${query}`);
      expectError(res, 422, 'VALIDATION_ERROR');
    }
    expectValidation(await get('/contacts?cursor=%7B%7D'), 'cursor');
  });

  it(
    "answers 404 for a malformed id and for another project's contact, with the same " + 'body as for a random id',
    async () => {
      const c = await create({ email: 'private@example.com' });
      const random = '01890000-0000-7000-8000-000000000000';
      for (const [method, payload] of [
        ['GET', undefined],
        ['PATCH', { subscribed: false }],
        ['DELETE', undefined],
      ] as const) {
        const mine = await t.app.inject({
          method,
          url: `/contacts/${random}`,
          headers: auth,
          ...(payload ? { payload } : {}),
        });
        const theirs = await t.app.inject({
          method,
          url: `/contacts/${c.id}`,
          headers: other,
          ...(payload ? { payload } : {}),
        });
        const malformed = await t.app.inject({
          method,
          url: '/contacts/not-an-id',
          headers: other,
          ...(payload ? { payload } : {}),
        });
        expectError(theirs, 404, 'NOT_FOUND');
        expect(stableError(theirs)).toEqual(stableError(mine));
        expect(stableError(malformed)).toEqual(stableError(mine));
      }
      expect((await get(`/contacts/${c.id}`)).json().data.subscribed).toBe(true);
      expect((await get('/contacts?email=private@example.com', other)).json().data.total).toBe(0);
      const separate = await post({ email: 'private@example.com' }, other);
      expect(separate.statusCode).toBe(201);
      expect(separate.json().data.id).not.toBe(c.id);
    },
  );

  it('refuses public keys with 403 and missing keys with 401 on every contacts route', async () => {
    const id = '01890000-0000-7000-8000-000000000000';
    const routes = [
      ['GET', '/contacts'],
      ['POST', '/contacts'],
      ['GET', `/contacts/${id}`],
      ['PATCH', `/contacts/${id}`],
      ['DELETE', `/contacts/${id}`],
      ['POST', '/contacts/import'],
      ['GET', `/contacts/import/${id}`],
    ] as const;
    for (const [method, url] of routes) {
      const payload = method === 'POST' || method === 'PATCH' ? { email: 'x@example.com' } : undefined;
      expectError(
        await t.app.inject({ method, url, headers: publicAuth, ...(payload ? { payload } : {}) }),
        403,
        'FORBIDDEN',
      );
      expectError(await t.app.inject({ method, url, ...(payload ? { payload } : {}) }), 401, 'UNAUTHORIZED');
    }
  });
});
