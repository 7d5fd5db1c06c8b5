// Engagement is counted from people only: a campaign's handoff notes marketing mail on each contact (one statement per
// settled batch), a person's open and click move the contact's figures and its hour-of-week histogram, and a
// machine's open (Apple's prefetch) or click (a scanner) changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { hourOfWeek } from '../../../src/modules/contacts/index.ts';
import { rowsOf } from '../../../src/db/rows.ts';

const browser =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.0 Safari/605.1.15';

describe('engagement from human activity', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  const ids = new Map<string, string>();
  const html = new Map<string, string>();

  const req = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const link = (who: string, kind: 'o' | 'c') =>
    new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`).exec(html.get(who)!)![1]!;
  const hit = (method: 'GET' | 'HEAD', url: string, userAgent: string, ip = '203.0.113.50') =>
    m.t.app.inject({
      method,
      url,
      remoteAddress: '127.0.0.1',
      headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
    });
  const engagement = async (who: string) => (await req('GET', `/contacts/${ids.get(who)}`)).json().data.engagement;
  const hours = async (who: string) =>
    rowsOf<{ h: number[] | string | null; n: number }>(
      await m.t.ctx.db.execute(sql`SELECT engagement_hours AS h, marketing_received AS n FROM contacts
        WHERE id = ${ids.get(who)!}::uuid`),
    )[0]!;

  beforeAll(async () => {
    m = await startMailFixture();
    auth = (await m.verifiedDomain('example.test')).auth;
    for (const who of ['a', 'b', 'c'])
      ids.set(who, (await req('POST', '/contacts', { email: `${who}@dest.test` })).json().data.id);
    // c gets a transactional email only: that is no marketing mail.
    const sent = await req('POST', '/v1/send', {
      from: 'hi@example.test',
      to: 'c@dest.test',
      subject: 'Receipt',
      body: '<p>thanks</p>',
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
  });
  afterAll(() => m.close());

  it('is new before any marketing mail, at risk once mail arrives unopened', async () => {
    expect(await engagement('a')).toEqual({ level: 'new', score: 0, lastHumanOpenAt: null, lastHumanClickAt: null });
    const created = await req('POST', '/campaigns', {
      name: 'News',
      subject: 'Hello',
      from: 'news@example.test',
      audienceType: 'FILTERED',
      audienceFilter: { field: 'email', operator: 'in', value: ['a@dest.test', 'b@dest.test'] },
      body: '<p><a href="https://example.test/one">one</a></p>',
    });
    const campaignId = created.json().data.id;
    expect((await req('POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    await until(async () => (await req('GET', `/campaigns/${campaignId}`)).json().data.status === 'SENT', 'SENT');
    await until(() => m.sink.messages.some((msg) => msg.to[0] === 'c@dest.test'), 'the receipt');
    for (const who of ['a', 'b'])
      html.set(
        who,
        (await simpleParser(m.sink.messages.find((msg) => msg.to[0] === `${who}@dest.test`)!.raw)).html as string,
      );
    expect((await engagement('a')).level).toBe('at_risk');
    expect((await hours('a')).n).toBe(1);
    expect((await engagement('c')).level).toBe('new');
    expect((await hours('c')).n).toBe(0);
  });

  it("ignores a machine's open and click", async () => {
    await hit('GET', link('a', 'o'), 'Mozilla/5.0', '17.58.101.22');
    await hit('HEAD', link('a', 'c'), browser);
    await hit('GET', link('a', 'c'), 'python-requests/2.31.0');
    expect(await engagement('a')).toEqual({
      level: 'at_risk',
      score: 0,
      lastHumanOpenAt: null,
      lastHumanClickAt: null,
    });
    expect((await hours('a')).h).toBeNull();
  });

  it("counts a person's open and click, and the hour of the week once per email", async () => {
    await m.t.ctx.db.execute(sql`UPDATE emails SET sent_at = now() - interval '1 minute' WHERE contact_id =
      ${ids.get('b')!}::uuid`);
    const before = Date.now();
    await hit('GET', link('b', 'o'), browser);
    await hit('GET', link('b', 'o'), browser); // a second open of the same email moves the time, not the histogram
    const opened = await engagement('b');
    expect(opened).toMatchObject({ level: 'engaged', score: 60, lastHumanClickAt: null });
    expect(Date.parse(opened.lastHumanOpenAt)).toBeGreaterThanOrEqual(before - 1000);
    await hit('GET', link('b', 'c'), browser);
    const clicked = await engagement('b');
    expect(clicked).toMatchObject({ level: 'engaged', score: 100 });
    expect(clicked.lastHumanClickAt).not.toBeNull();
    const raw = (await hours('b')).h;
    const histogram = typeof raw === 'string' ? raw.slice(1, -1).split(',').map(Number) : raw!;
    expect(histogram).toHaveLength(168);
    const hour = hourOfWeek(new Date());
    // One open and one click, in this hour (or the one before, had the hour turned meanwhile).
    expect(histogram[hour]! + (histogram[(hour + 167) % 168] ?? 0)).toBe(2);
    expect(histogram.reduce((a, b) => a + b, 0)).toBe(2);
    // The list shows the same.
    const listed = (await req('GET', '/contacts?limit=10')).json().data.items as { id: string; engagement: unknown }[];
    expect(listed.find((c) => c.id === ids.get('b'))!.engagement).toEqual(clicked);
  });
});
