import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation, stableError } from '../../support/envelope.ts';

type Auth = { authorization: string };

const segmentShape = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  filter: z.record(z.string(), z.unknown()),
  memberCount: z.number().int(),
  createdAt: z.iso.datetime({ offset: false, precision: 3 }),
  updatedAt: z.iso.datetime({ offset: false, precision: 3 }),
});

describe('segments API', () => {
  let t: TestApp;
  let auth: Auth;
  let other: Auth;

  const post = (payload: unknown, headers: Auth = auth) =>
    t.app.inject({ method: 'POST', url: '/segments', headers, payload: payload as object });
  const patch = (id: string, payload: unknown) =>
    t.app.inject({ method: 'PATCH', url: `/segments/${id}`, headers: auth, payload: payload as object });
  const get = (url: string, headers: Auth = auth) => t.app.inject({ method: 'GET', url, headers });
  const create = async (filter: unknown, name = 'seg') => {
    const res = await post({ name, filter });
    expect(res.statusCode, res.body).toBe(201);
    return segmentShape.parse(res.json().data);
  };
  const pro = { field: 'data.plan', operator: 'equals', value: 'pro' };

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await t.createProject('A')).auth;
    other = (await t.createProject('B')).auth;
    for (let i = 0; i < 5; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: auth,
        payload: { email: `p${i}@example.test`, data: { plan: i < 3 ? 'pro' : 'free' } },
      });
    }
  });
  afterAll(() => t.close());

  it('creates, reads, lists, updates and deletes a segment with its live member count', async () => {
    const created = await create(pro, 'Pro plan');
    expect(created).toMatchObject({ name: 'Pro plan', description: null, filter: pro, memberCount: 3 });
    expect(segmentShape.parse((await get(`/segments/${created.id}`)).json().data)).toEqual(created);
    const list = (await get('/segments')).json().data;
    expect(list.items.map((s: { id: string }) => s.id)).toContain(created.id);
    expect(list.total).toBe(list.items.length);

    const updated = await patch(created.id, { description: 'free ones', filter: { not: pro } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'Pro plan', description: 'free ones', memberCount: 2 });
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: { email: 'p0@example.test', data: { plan: 'free' } },
    });
    expect((await get(`/segments/${created.id}`)).json().data.memberCount).toBe(3);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/segments/${created.id}`, headers: auth });
    expect(deleted.json()).toEqual({ success: true, data: { id: created.id, deleted: true } });
    expectError(await get(`/segments/${created.id}`), 404, 'NOT_FOUND');
  });

  it('pages the members newest first with a cursor and the total', async () => {
    const all = await create({ field: 'email', operator: 'endsWith', value: '@example.test' });
    const first = (await get(`/segments/${all.id}/contacts?limit=2`)).json().data;
    expect(first).toMatchObject({ hasMore: true, total: 5 });
    expect(first.items.map((c: { email: string }) => c.email)).toEqual(['p4@example.test', 'p3@example.test']);
    const second = (await get(`/segments/${all.id}/contacts?limit=2&cursor=${first.nextCursor}`)).json().data;
    expect(second.items.map((c: { email: string }) => c.email)).toEqual(['p2@example.test', 'p1@example.test']);
    expect(Object.keys(second.items[0]).sort()).toEqual([
      'confirmation',
      'createdAt',
      'data',
      'email',
      'emailUnicode',
      'engagement',
      'id',
      'locale',
      'snoozedUntil',
      'subscribed',
      'updatedAt',
    ]);
    expectValidation(await get(`/segments/${all.id}/contacts?limit=0`), 'limit');
  });

  it('refuses an invalid filter with a 422 naming the offending path', async () => {
    const cases: [unknown, string][] = [
      [{ field: 'nickname', operator: 'equals', value: 'x' }, 'filter.field'],
      [{ all: [pro, { field: 'email', operator: 'bogus', value: 'x' }] }, 'filter.all.1.operator'],
      [{ any: [{ not: { field: 'subscribed', operator: 'equals', value: 'yes' } }] }, 'filter.any.0.not.value'],
      [{ field: 'subscribed', operator: 'contains', value: true }, 'filter.operator'],
      [{ field: 'email', operator: 'greaterThan', value: 'a' }, 'filter.operator'],
      [{ field: 'createdAt', operator: 'greaterThan', value: 'yesterday' }, 'filter.value'],
      [{ field: 'data.age', operator: 'greaterThan', value: 'ten' }, 'filter.value'],
      [{ field: 'data.tags', operator: 'in', value: [] }, 'filter.value'],
      [{ field: 'data.x', operator: 'exists', value: 1 }, 'filter.value'],
      [{ field: 'data..x', operator: 'exists' }, 'filter.field'],
      [{ event: 'purchase', operator: 'performed', within: '30 days' }, 'filter.within'],
      [{ event: 'purchase', operator: 'performed', count: { gte: 3, lte: 1 } }, 'filter.count'],
      [{ event: '', operator: 'performed' }, 'filter.event'],
      [{ activity: 'read', operator: 'performed' }, 'filter.activity'],
      [{ activity: 'opened', operator: 'performed', campaignId: 'abc' }, 'filter.campaignId'],
      [{ segment: 'not-an-id', operator: 'member' }, 'filter.segment'],
      [{ segment: '01890000-0000-7000-8000-000000000000', operator: 'member' }, 'filter.segment'],
      [{ all: [pro], any: [pro] }, 'filter'],
      [{ field: 'email', operator: 'equals', value: 'a', vaule: 'b' }, 'filter.vaule'],
      [{ all: 'nope' }, 'filter.all'],
      [{}, 'filter'],
    ];
    for (const [filter, path] of cases) {
      const body = expectValidation(await post({ name: 'bad', filter }), path);
      expect(body.message).toContain(path);
    }
    expectValidation(await post({ name: 'bad' }), 'filter');
    expectValidation(await post({ name: 'bad', filter: [pro] }), 'filter');
  });

  it('refuses a segment that includes itself, directly or in a circle (422), and keeps what it had', async () => {
    const a = await create(pro, 'A');
    const b = await create({ segment: a.id, operator: 'member' }, 'B');
    const c = await create({ all: [{ segment: b.id, operator: 'notMember' }] }, 'C');
    expect(b.memberCount).toBe(a.memberCount);
    const self = expectValidation(
      await patch(a.id, { filter: { segment: a.id, operator: 'member' } }),
      'filter.segment',
    );
    expect(self.error.errors?.[0]?.code).toBe('segment_cycle');
    expectValidation(
      await patch(a.id, { filter: { any: [pro, { segment: c.id, operator: 'member' }] } }),
      'filter.any.1.segment',
    );
    expect((await get(`/segments/${a.id}`)).json().data.filter).toEqual(pro);
  });

  it('answers 409 when deleting a segment another segment includes', async () => {
    const a = await create(pro, 'A2');
    const b = await create({ not: { segment: a.id, operator: 'member' } }, 'B2');
    expectError(await t.app.inject({ method: 'DELETE', url: `/segments/${a.id}`, headers: auth }), 409, 'CONFLICT');
    expect((await t.app.inject({ method: 'DELETE', url: `/segments/${b.id}`, headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/segments/${a.id}`, headers: auth })).statusCode).toBe(200);
  });

  it("keeps projects apart: another project's segment is a 404, and cannot be referenced", async () => {
    const mine = await create(pro, 'mine');
    const missing = await get('/segments/01890000-0000-7000-8000-000000000000', other);
    const foreign = await get(`/segments/${mine.id}`, other);
    expectError(foreign, 404, 'NOT_FOUND');
    expect(stableError(foreign)).toEqual(stableError(missing));
    expectError(await get(`/segments/${mine.id}/contacts`, other), 404, 'NOT_FOUND');
    expectError(await get('/segments/nope', other), 404, 'NOT_FOUND');
    expectError(
      await t.app.inject({ method: 'PATCH', url: `/segments/${mine.id}`, headers: other, payload: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/segments/${mine.id}`, headers: other }),
      404,
      'NOT_FOUND',
    );
    expectValidation(
      await post({ name: 'x', filter: { segment: mine.id, operator: 'member' } }, other),
      'filter.segment',
    );
    expect((await post({ name: 'x', filter: pro }, other)).json().data.memberCount).toBe(0);
  });
});
