import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';

type Auth = { authorization: string };

const eventShape = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  contactId: z.uuid(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime({ offset: false, precision: 3 }),
});

describe('GET /events and /events/names', () => {
  let t: TestApp;
  let auth: Auth;
  let other: Auth;
  let ada: string;
  let bob: string;
  const tracked: { id: string; name: string; timestamp: string }[] = [];

  const get = (url: string, headers: Auth = auth) => t.app.inject({ method: 'GET', url, headers });
  const items = async (url: string) => (await get(url)).json().data.items as z.infer<typeof eventShape>[];

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await t.createProject('A')).auth;
    other = (await t.createProject('B')).auth;
    const calls = [
      ['ada@example.com', 'signup'],
      ['bob@example.com', 'signup'],
      ['ada@example.com', 'page_view'],
      ['ada@example.com', 'page_view'],
      ['bob@example.com', 'purchase'],
      ['ada@example.com', 'page_view'],
    ];
    for (const [email, event] of calls) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/track',
        headers: auth,
        payload: { email, event, data: { n: tracked.length } },
      });
      tracked.push({ id: res.json().data.event, name: event!, timestamp: res.json().data.timestamp });
      if (email === 'ada@example.com') ada = res.json().data.contact;
      else bob = res.json().data.contact;
    }
    await t.app.inject({ method: 'PATCH', url: `/contacts/${bob}`, headers: auth, payload: { subscribed: false } });
    await t.app.inject({
      method: 'POST',
      url: '/v1/track',
      headers: other,
      payload: { email: 'ada@example.com', event: 'signup' },
    });
  });
  afterAll(() => t.close());

  it('lists every event newest first with its contact, data and time', async () => {
    const res = await get('/events');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.total).toBe(7);
    const list = data.items.map((e: unknown) => eventShape.parse(e));
    expect(list.map((e: { name: string }) => e.name)).toEqual([
      'contact.unsubscribed',
      ...tracked.map((e) => e.name).reverse(),
    ]);
    expect(list[1]).toEqual({
      id: tracked[5]!.id,
      name: 'page_view',
      contactId: ada,
      data: { n: 5 },
      createdAt: tracked[5]!.timestamp,
    });
    expect(list[0]).toMatchObject({ contactId: bob, data: {} });
  });

  it('filters by name, contact id and contact email, together or apart', async () => {
    expect((await items('/events?name=page_view')).map((e) => e.data.n)).toEqual([5, 3, 2]);
    expect((await items(`/events?contactId=${bob}`)).map((e) => e.name)).toEqual([
      'contact.unsubscribed',
      'purchase',
      'signup',
    ]);
    expect((await items('/events?email=%20BOB@example.com')).map((e) => e.name)).toEqual([
      'contact.unsubscribed',
      'purchase',
      'signup',
    ]);
    expect((await items(`/events?name=signup&contactId=${ada}`)).map((e) => e.id)).toEqual([tracked[0]!.id]);
    expect((await get('/events?name=signup&email=ada@example.com')).json().data.total).toBe(1);
    expect((await get('/events?email=nobody@example.com')).json().data).toEqual({
      items: [],
      nextCursor: null,
      hasMore: false,
      total: 0,
    });
    expect((await get('/events?name=nothing')).json().data.total).toBe(0);
  });

  it('pages with cursors, the same total on every page, and no gap or repeat', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const data: { total: number; items: { id: string }[]; nextCursor: string | null } = (
        await get(`/events?name=page_view&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json().data;
      expect(data.total).toBe(3);
      seen.push(...data.items.map((e) => e.id));
      cursor = data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual([tracked[5]!.id, tracked[3]!.id, tracked[2]!.id]);
  });

  it('answers 422 for bad limits, cursors and contact ids, never a 500', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=x',
      'cursor=nonsense',
      `cursor=${Buffer.from('[1,2]').toString('base64url')}`,
    ]) {
      expectError(await get(`/events?${query}`), 422, 'VALIDATION_ERROR');
    }
    expectValidation(await get('/events?contactId=not-an-id'), 'contactId');
    expectValidation(await get('/events/names?limit=0'), 'limit');
    expectValidation(await get('/events/names?cursor=%%%'), 'cursor');
    expectValidation(await get(`/events/names?cursor=${Buffer.from('{"after":1}').toString('base64url')}`), 'cursor');
  });

  it('counts each event name with the time it was last seen, page by page', async () => {
    const last = (name: string) => tracked.filter((e) => e.name === name).at(-1)!.timestamp;
    const res = await get('/events/names');
    expect(res.statusCode).toBe(200);
    const unsubscribedAt = (await items('/events?name=contact.unsubscribed'))[0]!.createdAt;
    expect(res.json().data).toEqual({
      items: [
        { name: 'contact.unsubscribed', count: 1, lastSeenAt: unsubscribedAt },
        { name: 'page_view', count: 3, lastSeenAt: last('page_view') },
        { name: 'purchase', count: 1, lastSeenAt: last('purchase') },
        { name: 'signup', count: 2, lastSeenAt: last('signup') },
      ],
      nextCursor: null,
      hasMore: false,
      total: 4,
    });
    const first = (await get('/events/names?limit=3')).json().data;
    expect(first).toMatchObject({ hasMore: true, total: 4 });
    const second = (await get(`/events/names?limit=3&cursor=${first.nextCursor}`)).json().data;
    expect(second).toMatchObject({ items: [{ name: 'signup', count: 2 }], hasMore: false, nextCursor: null, total: 4 });
  });

  it('shows a project only its own events', async () => {
    const theirs = (await get('/events', other)).json().data;
    expect(theirs.total).toBe(1);
    expect(theirs.items[0].contactId).not.toBe(ada);
    expect((await get(`/events?contactId=${ada}`, other)).json().data.total).toBe(0);
    expect((await get('/events/names', other)).json().data.items).toEqual([
      expect.objectContaining({ name: 'signup', count: 1 }),
    ]);
  });

  it('needs a secret key', async () => {
    const p = await t.createProject('pk');
    for (const url of ['/events', '/events/names']) {
      expectError(await get(url, { authorization: `Bearer ${p.publicKey}` }), 403, 'FORBIDDEN');
      expectError(await t.app.inject({ method: 'GET', url }), 401, 'UNAUTHORIZED');
    }
  });
});
