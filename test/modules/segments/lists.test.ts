import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };

describe('static segments (lists)', () => {
  let m: MailFixture;
  let t: TestApp;
  let auth: Auth;
  let other: Auth;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Auth = auth) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contactIds: string[] = [];

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    t = m.t;
    auth = (await m.verifiedDomain('lists.test')).auth;
    other = (await t.createProject('B')).auth;
    for (let i = 0; i < 4; i++) {
      const res = await call('POST', '/contacts', { email: `m${i}@example.test`, subscribed: i !== 3 });
      contactIds.push(res.json().data.id);
    }
  });
  afterAll(() => m.close());

  const createList = async (payload: Record<string, unknown> = {}) => {
    const res = await call('POST', '/segments', { name: 'Beta testers', type: 'STATIC', ...payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as {
      id: string;
      type: string;
      filter: unknown;
      memberCount: number;
      trackMembership: boolean;
    };
  };

  it('creates an empty list without a filter, adds members by email and id, and removes them', async () => {
    const list = await createList();
    expect(list).toMatchObject({ type: 'STATIC', filter: null, memberCount: 0, trackMembership: false });

    const added = await call('POST', `/segments/${list.id}/members`, {
      emails: ['M0@Example.test', 'nobody@example.test', 'not an address'],
      contactIds: [contactIds[1], crypto.randomUUID(), 'x'],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data).toEqual({
      added: 2,
      alreadyMembers: 0,
      missing: ['not an address', 'nobody@example.test', expect.any(String), 'x'],
    });
    expect(added.json().data.missing[2]).not.toBe(contactIds[1]);

    const again = await call('POST', `/segments/${list.id}/members`, {
      emails: ['m0@example.test', 'm2@example.test'],
    });
    expect(again.json().data).toEqual({ added: 1, alreadyMembers: 1, missing: [] });
    expect((await call('GET', `/segments/${list.id}`)).json().data.memberCount).toBe(3);
    const members = (await call('GET', `/segments/${list.id}/contacts`)).json().data;
    expect(members.items.map((c: { email: string }) => c.email).sort()).toEqual([
      'm0@example.test',
      'm1@example.test',
      'm2@example.test',
    ]);

    const removed = await call('DELETE', `/segments/${list.id}/members`, {
      emails: ['m0@example.test'],
      contactIds: [contactIds[3]],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data).toEqual({ removed: 1 });
    expect((await call('GET', `/segments/${list.id}`)).json().data.memberCount).toBe(2);
  });

  it('creates missing contacts only when asked', async () => {
    const list = await createList();
    const res = await call('POST', `/segments/${list.id}/members`, {
      emails: ['fresh@example.test'],
      createMissing: true,
    });
    expect(res.json().data).toEqual({ added: 1, alreadyMembers: 0, missing: [] });
    const found = (await call('GET', '/contacts?email=fresh@example.test')).json().data.items;
    expect(found).toHaveLength(1);
    expect(found[0].subscribed).toBe(true);
  });

  it('refuses more than 1,000 members in one call, an empty call, and a filter on a list', async () => {
    const list = await createList();
    const emails = Array.from({ length: 1001 }, (_, i) => `bulk${i}@example.test`);
    expectValidation(await call('POST', `/segments/${list.id}/members`, { emails }), 'emails');
    expectValidation(
      await call('POST', `/segments/${list.id}/members`, {
        emails: emails.slice(0, 600),
        contactIds: Array.from({ length: 401 }, () => crypto.randomUUID()),
      }),
      'emails',
    );
    expectValidation(await call('POST', `/segments/${list.id}/members`, {}), 'emails');
    expectValidation(
      await call('POST', '/segments', {
        name: 'x',
        type: 'STATIC',
        filter: { field: 'email', operator: 'contains', value: 'a' },
      }),
      'filter',
    );
    expectValidation(await call('POST', '/segments', { name: 'x' }), 'filter');
    expectValidation(
      await call('PATCH', `/segments/${list.id}`, { filter: { field: 'email', operator: 'contains', value: 'a' } }),
      'filter',
    );
  });

  it("answers 409 for the members of a DYNAMIC segment, and 404 for another project's list", async () => {
    const dynamic = await call('POST', '/segments', {
      name: 'pros',
      filter: { field: 'subscribed', operator: 'equals', value: true },
    });
    const id = dynamic.json().data.id as string;
    expectError(await call('POST', `/segments/${id}/members`, { emails: ['m0@example.test'] }), 409, 'CONFLICT');
    expectError(await call('DELETE', `/segments/${id}/members`, { emails: ['m0@example.test'] }), 409, 'CONFLICT');
    const list = await createList();
    expectError(
      await call('POST', `/segments/${list.id}/members`, { emails: ['m0@example.test'] }, other),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call('POST', `/segments/${crypto.randomUUID()}/members`, { emails: ['m0@example.test'] }),
      404,
      'NOT_FOUND',
    );
  });

  it('works in the segment filter condition and as a campaign audience (subscribed members only)', async () => {
    const list = await createList();
    await call('POST', `/segments/${list.id}/members`, { contactIds: contactIds.slice(1) });
    const nested = await call('POST', '/segments', {
      name: 'not on the list',
      filter: { segment: list.id, operator: 'notMember' },
    });
    expect(nested.statusCode, nested.body).toBe(201);
    const outside = (await call('GET', `/segments/${nested.json().data.id}/contacts?limit=100`))
      .json()
      .data.items.map((c: { id: string }) => c.id);
    expect(outside).toContain(contactIds[0]);
    expect(outside).not.toContain(contactIds[1]);

    const campaign = await call('POST', '/campaigns', {
      name: 'List mail',
      subject: 'Hi',
      body: '<p>Hi</p>',
      from: 'news@lists.test',
      audienceType: 'SEGMENT',
      segmentId: list.id,
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    // Members 1, 2 and 3; the third is unsubscribed.
    expect(campaign.json().data.recipientCount).toBe(2);
    expectError(await call('DELETE', `/segments/${list.id}`), 409, 'CONFLICT');
  });

  it("cannot change a segment's type", async () => {
    const list = await createList();
    const res = await call('PATCH', `/segments/${list.id}`, { type: 'DYNAMIC', name: 'renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type: 'STATIC', name: 'renamed' });
  });
});
