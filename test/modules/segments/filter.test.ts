// The filter language end to end: each operator and combinator through POST /segments and
// GET /segments/{id}/contacts, with the exact member sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { emails, events } from '../../../src/db/schema/index.ts';
import { newId } from '../../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

type Auth = { authorization: string };
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

describe('filter language', () => {
  let t: TestApp;
  let auth: Auth;
  let projectId: string;
  const ids: Record<string, string> = {};
  const campaignX = newId();

  /** The emails (local parts) of the members of a segment with this filter, checked against memberCount. */
  async function members(filter: unknown): Promise<string[]> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/segments',
      headers: auth,
      payload: { name: 'probe', filter } as object,
    });
    expect(res.statusCode, res.body).toBe(201);
    const segment = res.json().data as { id: string; memberCount: number };
    const list = await t.app.inject({
      method: 'GET',
      url: `/segments/${segment.id}/contacts?limit=100`,
      headers: auth,
    });
    const items = list.json().data.items as { email: string }[];
    expect(list.json().data.total).toBe(items.length);
    expect(segment.memberCount).toBe(items.length);
    return items.map((c) => c.email.split('@')[0]!).sort();
  }

  beforeAll(async () => {
    t = await createTestApp();
    const project = await t.createProject();
    auth = project.auth;
    projectId = project.id;
    const seed: [string, boolean, Record<string, unknown>][] = [
      [
        'ann@a.test',
        true,
        {
          plan: 'pro',
          age: 34,
          tags: ['vip', 'beta'],
          city: 'Berlin',
          signup: ago(10).toISOString(),
          nested: { score: 9 },
        },
      ],
      [
        'bob@b.test',
        false,
        {
          plan: 'free',
          age: '28',
          tags: ['beta'],
          city: 'berlin-mitte',
          signup: ago(100).toISOString().slice(0, 10),
          active: true,
        },
      ],
      [
        'cat@a.test',
        true,
        { plan: 'team', age: 41, city: 'Paris', signup: 'not a date', nested: { score: 3 }, active: 'true' },
      ],
      ['dan@c.test', true, {}],
      ['eve@b.test', true, { plan: 'pro', age: 19.5, signup: '2024-02-31' }],
    ];
    for (const [email, subscribed, data] of seed) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: auth,
        payload: { email, subscribed, data },
      });
      ids[email.split('@')[0]!] = res.json().data.id;
    }
    await t.ctx.db.execute(
      sql`UPDATE contacts SET created_at = ${ago(40).toISOString()}::timestamptz WHERE id = ${ids.dan}::uuid`,
    );
    const event = (who: string, name: string, at: Date) => ({
      id: newId(),
      projectId,
      contactId: ids[who]!,
      name,
      data: {},
      createdAt: at,
    });
    await t.ctx.db
      .insert(events)
      .values([
        event('ann', 'purchase', ago(2)),
        event('ann', 'purchase', ago(40)),
        event('ann', 'purchase', ago(41)),
        event('bob', 'purchase', ago(10)),
        event('cat', 'login', ago(0)),
      ]);
    const email = (who: string, fields: Partial<typeof emails.$inferInsert>) => ({
      id: newId(),
      projectId,
      contactId: ids[who]!,
      toEmail: `${who}@x.test`,
      fromEmail: 'news@example.test',
      subject: 's',
      html: 'h',
      messageId: `<${newId()}@example.test>`,
      status: 'SENT' as const,
      sourceType: 'TRANSACTIONAL' as const,
      ...fields,
    });
    await t.ctx.db.insert(emails).values([
      email('ann', {
        status: 'DELIVERED',
        sourceType: 'CAMPAIGN',
        sourceId: campaignX,
        sentAt: ago(1),
        openedAt: ago(1),
        opens: 1,
      }),
      email('bob', { status: 'BOUNCED', bouncedAt: ago(3) }),
      email('cat', { sentAt: ago(10), openedAt: ago(9), clickedAt: ago(9) }),
      email('dan', { status: 'QUEUED' }),
    ]);
  });
  afterAll(() => t.close());

  const field = (name: string, operator: string, value?: unknown) => ({
    field: name,
    operator,
    ...(value === undefined ? {} : { value }),
  });

  it('email: equals (any case), notEquals, contains, notContains, startsWith, endsWith, in, notIn', async () => {
    expect(await members(field('email', 'equals', 'ANN@a.test'))).toEqual(['ann']);
    expect(await members(field('email', 'notEquals', 'ann@a.test'))).toEqual(['bob', 'cat', 'dan', 'eve']);
    expect(await members(field('email', 'contains', '@B.'))).toEqual(['bob', 'eve']);
    expect(await members(field('email', 'notContains', '@b.'))).toEqual(['ann', 'cat', 'dan']);
    expect(await members(field('email', 'startsWith', 'c'))).toEqual(['cat']);
    expect(await members(field('email', 'endsWith', 'a.test'))).toEqual(['ann', 'cat']);
    expect(await members(field('email', 'in', ['ann@a.test', 'DAN@c.test', 'zed@z.test']))).toEqual(['ann', 'dan']);
    expect(await members(field('email', 'notIn', ['ann@a.test', 'dan@c.test']))).toEqual(['bob', 'cat', 'eve']);
  });

  it('subscribed, createdAt and updatedAt', async () => {
    expect(await members(field('subscribed', 'equals', false))).toEqual(['bob']);
    expect(await members(field('subscribed', 'notEquals', false))).toEqual(['ann', 'cat', 'dan', 'eve']);
    expect(await members(field('createdAt', 'within', '30d'))).toEqual(['ann', 'bob', 'cat', 'eve']);
    expect(await members(field('createdAt', 'olderThan', '4w'))).toEqual(['dan']);
    expect(await members(field('createdAt', 'lessThan', ago(35).toISOString()))).toEqual(['dan']);
    expect(await members(field('createdAt', 'greaterThanOrEqual', ago(35).toISOString().slice(0, 10)))).toEqual([
      'ann',
      'bob',
      'cat',
      'eve',
    ]);
    expect(await members(field('updatedAt', 'greaterThan', ago(1).toISOString()))).toEqual([
      'ann',
      'bob',
      'cat',
      'dan',
      'eve',
    ]);
    expect(await members(field('updatedAt', 'lessThanOrEqual', '2000-01-01'))).toEqual([]);
  });

  it('data: equals and notEquals (a missing key is "not equal"; 28 also matches the text "28")', async () => {
    expect(await members(field('data.plan', 'equals', 'pro'))).toEqual(['ann', 'eve']);
    expect(await members(field('data.plan', 'notEquals', 'pro'))).toEqual(['bob', 'cat', 'dan']);
    expect(await members(field('data.age', 'equals', 28))).toEqual(['bob']);
    expect(await members(field('data.active', 'equals', true))).toEqual(['bob', 'cat']);
    expect(await members(field('data.nested.score', 'equals', 9))).toEqual(['ann']);
  });

  it('data: numbers and dates compare by value; text that is neither never matches', async () => {
    expect(await members(field('data.age', 'greaterThan', 34))).toEqual(['cat']);
    expect(await members(field('data.age', 'greaterThanOrEqual', 28))).toEqual(['ann', 'bob', 'cat']);
    expect(await members(field('data.age', 'lessThan', 20))).toEqual(['eve']);
    expect(await members(field('data.age', 'lessThanOrEqual', 19.5))).toEqual(['eve']);
    expect(await members(field('data.nested.score', 'greaterThan', 5))).toEqual(['ann']);
    expect(await members(field('data.signup', 'greaterThan', ago(50).toISOString()))).toEqual(['ann']);
    expect(await members(field('data.signup', 'lessThan', ago(50).toISOString().slice(0, 10)))).toEqual(['bob']);
    expect(await members(field('data.signup', 'within', '30d'))).toEqual(['ann']);
    expect(await members(field('data.signup', 'olderThan', '30d'))).toEqual(['bob']);
  });

  it('data: contains (substring of text, any case; element of an array), startsWith, endsWith', async () => {
    expect(await members(field('data.city', 'contains', 'BERLIN'))).toEqual(['ann', 'bob']);
    expect(await members(field('data.city', 'notContains', 'berlin'))).toEqual(['cat', 'dan', 'eve']);
    expect(await members(field('data.tags', 'contains', 'beta'))).toEqual(['ann', 'bob']);
    expect(await members(field('data.tags', 'contains', 'bet'))).toEqual([]);
    expect(await members(field('data.city', 'startsWith', 'ber'))).toEqual(['ann', 'bob']);
    expect(await members(field('data.city', 'endsWith', 'MITTE'))).toEqual(['bob']);
  });

  it('data: in, notIn (short and long lists), exists, notExists', async () => {
    expect(await members(field('data.plan', 'in', ['team', 'free']))).toEqual(['bob', 'cat']);
    expect(await members(field('data.plan', 'notIn', ['team', 'free']))).toEqual(['ann', 'dan', 'eve']);
    const long = [...Array.from({ length: 20 }, (_, i) => `plan${i}`), 'pro', 41];
    expect(await members(field('data.plan', 'in', long))).toEqual(['ann', 'eve']);
    expect(await members(field('data.age', 'in', long))).toEqual(['cat']);
    expect(await members(field('data.nested', 'exists'))).toEqual(['ann', 'cat']);
    expect(await members(field('data.nested.score', 'notExists'))).toEqual(['bob', 'dan', 'eve']);
  });

  it('events: performed, notPerformed, within a window, with counts', async () => {
    const purchase = (extra: Record<string, unknown> = {}, operator = 'performed') => ({
      event: 'purchase',
      operator,
      ...extra,
    });
    expect(await members(purchase())).toEqual(['ann', 'bob']);
    expect(await members(purchase({}, 'notPerformed'))).toEqual(['cat', 'dan', 'eve']);
    expect(await members(purchase({ within: '7d' }))).toEqual(['ann']);
    expect(await members(purchase({ within: '7d' }, 'notPerformed'))).toEqual(['bob', 'cat', 'dan', 'eve']);
    expect(await members(purchase({ count: { gte: 2 } }))).toEqual(['ann']);
    expect(await members(purchase({ count: { lte: 1 } }))).toEqual(['bob']);
    expect(await members(purchase({ count: { gte: 0, lte: 0 } }))).toEqual(['cat', 'dan', 'eve']);
    expect(await members(purchase({ within: '30d', count: { gte: 1, lte: 1 } }))).toEqual(['ann', 'bob']);
    expect(await members(purchase({ count: { gte: 3 } }, 'notPerformed'))).toEqual(['bob', 'cat', 'dan', 'eve']);
  });

  it('email activity: sent, delivered, opened, clicked, bounced, complained, within, campaignId', async () => {
    const activity = (name: string, extra: Record<string, unknown> = {}, operator = 'performed') => ({
      activity: name,
      operator,
      ...extra,
    });
    expect(await members(activity('sent'))).toEqual(['ann', 'bob', 'cat']);
    // Only what a provider reported delivered: cat's email was sent, never reported.
    expect(await members(activity('delivered'))).toEqual(['ann']);
    expect(await members(activity('opened'))).toEqual(['ann', 'cat']);
    expect(await members(activity('opened', {}, 'notPerformed'))).toEqual(['bob', 'dan', 'eve']);
    expect(await members(activity('clicked'))).toEqual(['cat']);
    expect(await members(activity('bounced'))).toEqual(['bob']);
    expect(await members(activity('complained'))).toEqual([]);
    expect(await members(activity('sent', { within: '7d' }))).toEqual(['ann', 'bob']);
    expect(await members(activity('opened', { campaignId: campaignX }))).toEqual(['ann']);
    expect(await members(activity('opened', { campaignId: newId() }))).toEqual([]);
  });

  it('combinators: all, any, not, nesting, and the empty lists', async () => {
    const pro = field('data.plan', 'equals', 'pro');
    const subscribed = field('subscribed', 'equals', true);
    expect(await members({ all: [pro, subscribed] })).toEqual(['ann', 'eve']);
    expect(await members({ any: [pro, field('email', 'startsWith', 'b')] })).toEqual(['ann', 'bob', 'eve']);
    expect(await members({ not: pro })).toEqual(['bob', 'cat', 'dan']);
    expect(await members({ not: field('data.age', 'greaterThan', 30) })).toEqual(['bob', 'dan', 'eve']);
    expect(
      await members({
        all: [
          { any: [pro, { event: 'login', operator: 'performed' }] },
          { not: { activity: 'opened', operator: 'performed' } },
        ],
      }),
    ).toEqual(['eve']);
    expect(await members({ all: [] })).toEqual(['ann', 'bob', 'cat', 'dan', 'eve']);
    expect(await members({ any: [] })).toEqual([]);
  });

  it('segment membership expands other segments (and theirs) into the same query', async () => {
    const create = async (filter: unknown) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/segments',
          headers: auth,
          payload: { name: 'ref', filter } as object,
        })
      ).json().data.id as string;
    const pro = await create(field('data.plan', 'equals', 'pro'));
    const older = await create({ all: [{ segment: pro, operator: 'member' }, field('data.age', 'greaterThan', 20)] });
    expect(await members({ segment: pro, operator: 'member' })).toEqual(['ann', 'eve']);
    expect(await members({ segment: pro, operator: 'notMember' })).toEqual(['bob', 'cat', 'dan']);
    expect(await members({ segment: older, operator: 'member' })).toEqual(['ann']);
    expect(
      await members({ any: [{ segment: older, operator: 'member' }, field('email', 'equals', 'dan@c.test')] }),
    ).toEqual(['ann', 'dan']);
  });

  it('values are bound parameters: quotes and SQL in values and keys match literally', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: { email: 'odd@d.test', data: { "it's": "x'); DROP TABLE contacts; --" } },
    });
    expect(await members(field("data.it's", 'equals', "x'); DROP TABLE contacts; --"))).toEqual(['odd']);
    expect(await members(field("data.it's", 'contains', "'); drop"))).toEqual(['odd']);
  });
});
