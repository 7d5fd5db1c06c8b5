// A contact who unsubscribed told apart from one who never subscribed (by the consent ledger), in the list's items
// and its `subscription` filter.
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

  it('refuses an unknown state with a 422 naming the parameter', async () => {
    expectValidation(await req('GET', '/contacts?subscription=maybe'), 'subscription');
  });
});
