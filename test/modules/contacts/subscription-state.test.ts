// A contact who unsubscribed told apart from one who never subscribed (by the consent ledger), in the list's items,
// its `subscription` filter, and every view of one contact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectValidation } from '../../support/envelope.ts';

describe('GET /contacts: subscribed, unsubscribed and never subscribed', () => {
  let t: TestApp;
  let auth: { authorization: string };

  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  const list = async (query: string) => {
    const res = await req('GET', `/contacts?limit=100&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.items as { email: string; subscription: string }[];
    return Object.fromEntries(items.map((c) => [c.email.split('@')[0], c.subscription]));
  };

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await t.createProject()).auth;
    expect((await req('POST', '/contacts', { email: 'sub@a.test', subscribed: true })).statusCode).toBe(201);
    const left = await req('POST', '/contacts', { email: 'left@a.test', subscribed: true });
    expect((await req('PATCH', `/contacts/${left.json().data.id}`, { subscribed: false })).statusCode).toBe(200);
    expect((await req('POST', '/contacts', { email: 'never@a.test', subscribed: false })).statusCode).toBe(201);
    // Subscribed later: no longer "never subscribed".
    const late = await req('POST', '/contacts', { email: 'late@a.test', subscribed: false });
    expect((await req('PATCH', `/contacts/${late.json().data.id}`, { subscribed: true })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('says where each contact stands', async () => {
    expect(await list('')).toEqual({
      sub: 'subscribed',
      left: 'unsubscribed',
      never: 'never_subscribed',
      late: 'subscribed',
    });
  });

  it('filters by state, alone or with the other filters', async () => {
    expect(await list('subscription=subscribed')).toEqual({ sub: 'subscribed', late: 'subscribed' });
    expect(await list('subscription=unsubscribed')).toEqual({ left: 'unsubscribed' });
    expect(await list('subscription=never_subscribed')).toEqual({ never: 'never_subscribed' });
    expect(await list('subscription=never_subscribed&search=left')).toEqual({});
    expect(await list('subscribed=false')).toEqual({ left: 'unsubscribed', never: 'never_subscribed' });
    const res = await req('GET', '/contacts?limit=1&subscription=never_subscribed');
    expect(res.json().data.total).toBe(1);
  });

  it('says the same of one contact: read, created, updated', async () => {
    const ids = Object.fromEntries(
      ((await req('GET', '/contacts?limit=100')).json().data.items as { id: string; email: string }[]).map((c) => [
        c.email.split('@')[0],
        c.id,
      ]),
    );
    const one = async (name: string) => {
      const res = await req('GET', `/contacts/${ids[name]}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.subscription as string;
    };
    expect(await one('sub')).toBe('subscribed');
    expect(await one('left')).toBe('unsubscribed');
    expect(await one('never')).toBe('never_subscribed');
    expect(await one('late')).toBe('subscribed');

    const created = await req('POST', '/contacts', { email: 'fresh@a.test', subscribed: false });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ subscribed: false, subscription: 'never_subscribed' });
    const again = await req('POST', '/contacts', { email: 'fresh@a.test', data: { plan: 'pro' } });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.subscription).toBe('never_subscribed');
    const joined = await req('PATCH', `/contacts/${created.json().data.id}`, { subscribed: true });
    expect(joined.json().data.subscription).toBe('subscribed');
    const left = await req('PATCH', `/contacts/${created.json().data.id}`, { subscribed: false });
    expect(left.json().data.subscription).toBe('unsubscribed');
    expect((await req('GET', '/contacts/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await req('GET', '/contacts/not-an-id')).statusCode).toBe(404);
  });

  it('refuses an unknown state with a 422 naming the parameter', async () => {
    expectValidation(await req('GET', '/contacts?subscription=maybe'), 'subscription');
  });
});
