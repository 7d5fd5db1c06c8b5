// People and machines told apart on a sent campaign: Apple's prefetch, HEAD requests, scanners' agents and
// instant clicks count in opened/clicked but not in the human figures, the rates, the `human` filter, the
// follow-up audiences or the link report's human clicks; events carry data.machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { expectValidation } from '../../support/envelope.ts';

const browser =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, ' +
  'like Gecko) Version/17.0 Safari/605.1.15';

describe('human and machine engagement on a campaign', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let campaignId: string;
  const html = new Map<string, string>();
  const contactIds = new Map<string, string>();

  const req = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const link = (who: string, kind: 'o' | 'c', nth = 0) =>
    [...html.get(who)!.matchAll(new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`, 'g'))][nth]![1]!;
  const hit = (method: 'GET' | 'HEAD', url: string, userAgent: string, ip = '203.0.113.50') =>
    m.t.app.inject({
      method,
      url,
      remoteAddress: '127.0.0.1',
      headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
    });
  const events = async (who: string, name: string) =>
    (await req('GET', `/events?contactId=${contactIds.get(who)}&name=${name}`))
      .json()
      .data.items.map((e: { data: Record<string, unknown> }) => e.data);
  const countOf = async (filter: Record<string, unknown>) =>
    (
      await req('POST', '/campaigns', {
        name: 'count',
        subject: 's',
        body: 'b',
        from: 'news@example.test',
        audienceType: 'FILTERED',
        audienceFilter: filter,
      })
    ).json().data.recipientCount as number;

  beforeAll(async () => {
    m = await startMailFixture();
    auth = (await m.verifiedDomain('example.test')).auth;
    for (const who of ['a', 'b', 'c', 'd']) {
      const res = await req('POST', '/contacts', { email: `${who}@dest.test`, data: { group: 'eng' } });
      contactIds.set(who, res.json().data.id);
    }
    const created = await req('POST', '/campaigns', {
      name: 'Engagement',
      subject: 'Hello',
      from: 'news@example.test',
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.group', operator: 'equals', value: 'eng' },
      body:
        '<p><a href="https://example.test/one">one</a> <a ' +
        'href="https://example.test/two">two</a> <a href="{{unsubscribeUrl}}">u</a></p>',
    });
    campaignId = created.json().data.id;
    expect((await req('POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    await until(
      async () => (await req('GET', `/campaigns/${campaignId}`)).json().data.status === 'SENT',
      'SENT',
      30_000,
    );
    for (const who of ['a', 'b', 'c', 'd'])
      html.set(
        who,
        (await simpleParser(m.sink.messages.find((msg) => msg.to[0] === `${who}@dest.test`)!.raw)).html as string,
      );
  });
  afterAll(() => m.close());

  it(
    'classifies each open and click by the documented rules, and reports both counts ' + 'with rates from people',
    async () => {
      // a: Apple Mail Privacy Protection prefetches the pixel; a scanner checks a link with HEAD.
      await hit('GET', link('a', 'o'), 'Mozilla/5.0', '17.58.101.22');
      expect((await hit('HEAD', link('a', 'c', 0), browser)).statusCode).toBe(302);
      // b: opened by a person, but the link followed within 5 s of the handoff (a scanner's instant click): the
      // handoff is made to have been just now, whatever time the test took to get here.
      await hit('GET', link('b', 'o'), browser);
      await m.t.ctx.db.execute(sql`UPDATE emails SET sent_at = now() WHERE source_id = ${campaignId}::uuid`);
      await hit('GET', link('b', 'c', 0), browser);
      // Later clicks are a while after the handoff.
      await m.t.ctx.db.execute(
        sql`UPDATE emails SET sent_at = now() - interval '1 minute' WHERE source_id = ${campaignId}::uuid`,
      );
      // c: a person clicks (which means they opened it too); d: a security scanner's agent.
      await hit('GET', link('c', 'c', 1), browser);
      await hit('GET', link('d', 'c', 0), 'python-requests/2.31.0');

      expect((await req('GET', `/campaigns/${campaignId}/stats`)).json().data).toMatchObject({
        sent: 4,
        opened: 4,
        humanOpened: 2,
        clicked: 4,
        humanClicked: 1,
        openRate: 0.5,
        clickRate: 0.25,
      });
      expect(await events('a', 'email.opened')).toEqual([expect.objectContaining({ first: true, machine: true })]);
      expect(await events('b', 'email.opened')).toEqual([expect.objectContaining({ first: true, machine: false })]);
      expect(await events('b', 'email.clicked')).toEqual([
        expect.objectContaining({ machine: true, url: 'https://example.test/one' }),
      ]);
      expect(await events('c', 'email.clicked')).toEqual([
        expect.objectContaining({ machine: false, url: 'https://example.test/two' }),
      ]);

      // A person opening after the machine did: their first open is an event of its own; repeated ones only count.
      await hit('GET', link('a', 'o'), browser);
      await hit('GET', link('a', 'o'), browser);
      expect(await events('a', 'email.opened')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ first: false, machine: false }),
          expect.objectContaining({ first: true, machine: true }),
        ]),
      );
      expect((await events('a', 'email.opened')).length).toBe(2);
      expect((await req('GET', `/campaigns/${campaignId}/stats`)).json().data).toMatchObject({
        opened: 4,
        humanOpened: 3,
        openRate: 0.75,
      });
    },
  );

  it("the link report counts every click, people's clicks and the emails that clicked each link", async () => {
    const res = await req('GET', `/campaigns/${campaignId}/links`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { url: 'https://example.test/one', clicks: 3, humanClicks: 0, uniqueClicks: 3 },
      { url: 'https://example.test/two', clicks: 1, humanClicks: 1, uniqueClicks: 1 },
    ]);
  });

  it('the activity filter takes "human": true; without it machines count', async () => {
    expect(await countOf({ activity: 'opened', operator: 'performed', campaignId })).toBe(4);
    expect(await countOf({ activity: 'opened', operator: 'performed', campaignId, human: true })).toBe(3);
    expect(await countOf({ activity: 'clicked', operator: 'performed', campaignId, human: true })).toBe(1);
    const bad = await req('POST', '/campaigns', {
      name: 'x',
      subject: 's',
      body: 'b',
      from: 'news@example.test',
      audienceType: 'FILTERED',
      audienceFilter: { activity: 'opened', operator: 'performed', human: 'yes' },
    });
    expectValidation(bad, 'audienceFilter.human');
  });

  it('a follow-up is a DRAFT to the recipients who did not open (or click), as people, still subscribed', async () => {
    const openers = await req('POST', `/campaigns/${campaignId}/follow-up`, {
      audience: 'nonOpeners',
      subject: 'Did you see this?',
    });
    expect(openers.statusCode, openers.body).toBe(201);
    expect(openers.json().data).toMatchObject({
      status: 'DRAFT',
      audienceType: 'FILTERED',
      subject: 'Did you see this?',
      recipientCount: 1,
      name: 'Engagement (follow-up to non-openers)',
    });
    const clickers = await req('POST', `/campaigns/${campaignId}/follow-up`, { audience: 'nonClickers' });
    expect(clickers.json().data).toMatchObject({ subject: 'Hello', recipientCount: 3 });
    // d unsubscribes: out of both.
    await req('POST', '/contacts', { email: 'd@dest.test', subscribed: false });
    expect((await req('GET', `/campaigns/${openers.json().data.id}`)).json().data.recipientCount).toBe(0);
    expect((await req('GET', `/campaigns/${clickers.json().data.id}`)).json().data.recipientCount).toBe(2);
    expectValidation(await req('POST', `/campaigns/${campaignId}/follow-up`, { audience: 'everyone' }), 'audience');
    expect(
      (await req('POST', '/campaigns/00000000-0000-4000-8000-000000000000/follow-up', { audience: 'nonOpeners' }))
        .statusCode,
    ).toBe(404);
  });
});
