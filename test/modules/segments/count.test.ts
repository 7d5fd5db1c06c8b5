// GET /segments/count: the contacts a filter matches before it is saved (the segment builder's live count).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';

describe('GET /segments/count', () => {
  let t: TestApp;
  let auth: { authorization: string };

  const count = (filter: unknown, headers = auth) =>
    t.app.inject({
      method: 'GET',
      url: `/segments/count?filter=${encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter))}`,
      headers,
    });

  beforeAll(async () => {
    t = await createTestApp();
    const project = await t.createProject();
    auth = project.auth;
    for (const [email, subscribed, plan] of [
      ['ann@a.test', true, 'pro'],
      ['bob@a.test', true, 'free'],
      ['cy@b.test', false, 'pro'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: auth,
        payload: { email, subscribed, data: { plan } },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // Another project's contacts are never counted.
    const other = await t.createProject('Other');
    await t.app.inject({ method: 'POST', url: '/contacts', headers: other.auth, payload: { email: 'ann@a.test' } });
  });
  afterAll(() => t.close());

  it('counts the contacts a filter matches, as a saved segment of it would', async () => {
    const filter = { all: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] };
    const res = await count(filter);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ count: 2 });
    expect((await count({ all: [] })).json().data.count).toBe(3);
    const subscribedPro = { all: [...filter.all, { field: 'subscribed', operator: 'equals', value: true }] };
    expect((await count(subscribedPro)).json().data.count).toBe(1);

    const saved = await t.app.inject({
      method: 'POST',
      url: '/segments',
      headers: auth,
      payload: { name: 'Pro', filter },
    });
    expect(saved.json().data.memberCount).toBe(2);
    // A filter naming a saved segment counts through it.
    const member = { all: [{ segment: saved.json().data.id, operator: 'member' }] };
    expect((await count(member)).json().data.count).toBe(2);
  });

  it('refuses a filter that is not JSON, not a filter, or names an unknown segment with a 422', async () => {
    expectValidation(await count('{not json'), 'filter');
    expectValidation(await count('[1, 2]'), 'filter');
    expectValidation(
      await count({ all: [{ field: 'data.plan', operator: 'near', value: 'x' }] }),
      'filter.all.0.operator',
    );
    const unknown = { all: [{ segment: '0b7f6a9e-8e4f-4c52-9c1a-2f0e5d3c1a77', operator: 'member' }] };
    expectValidation(await count(unknown), 'filter.all.0.segment');
    expectValidation(await t.app.inject({ method: 'GET', url: '/segments/count', headers: auth }), 'filter');
  });

  it('takes a read key and refuses no key', async () => {
    const key = await t.app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: auth,
      payload: { name: 'reader', scope: 'read' },
    });
    expect(key.statusCode, key.body).toBe(201);
    const reader = { authorization: `Bearer ${key.json().data.key}` };
    expect((await count({ all: [] }, reader)).json().data.count).toBe(3);
    expectError(await t.app.inject({ method: 'GET', url: '/segments/count?filter={}' }), 401, 'UNAUTHORIZED');
  });
});
