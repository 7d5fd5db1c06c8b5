// A/B tests end to end: the test share split evenly, TESTING while waiting, the winner by people's opens or clicks
// (machines' do not count) after waitFor or picked by hand (also while the share is still being queued), the rest
// with the winner, nobody with two variants; bad inputs, duplicates, and each variant's sender checked at send time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { sql } from 'drizzle-orm';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { FANOUT_BATCH, fanoutBatch } from '../../../src/modules/campaigns/campaigns.jobs.ts';
import { findCampaignById } from '../../../src/modules/campaigns/campaigns.repo.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

const browser =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, ' +
  'like Gecko) Version/17.0 Safari/605.1.15';

describe('A/B tests', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let projectId: string;
  let project: Awaited<ReturnType<MailFixture['verifiedDomain']>>['project'];
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const statusOf = async (id: string) => (await req('GET', `/campaigns/${id}`)).json().data.status as string;
  const base = (group: string) => ({
    name: `ab ${group}`,
    subject: 'Plain',
    body: '<p>Hello</p><a href="{{unsubscribeUrl}}">u</a>',
    from: 'news@example.test',
    audienceType: 'FILTERED',
    audienceFilter: { field: 'data.group', operator: 'equals', value: group },
  });
  const variants = [
    { subject: 'Subject A' },
    { subject: 'Subject B', body: '<p>Hello from B</p><a href="{{unsubscribeUrl}}">u</a>' },
  ];
  /** What each recipient of the group received: subjects, and the open pixel and first tracked link of each. */
  const received = async (group: string) => {
    const mine = m.sink.messages.filter((msg) => new RegExp(`^${group}\\d`).test(msg.to[0]!));
    return Promise.all(
      mine.map(async (msg) => {
        const parsed = await simpleParser(msg.raw);
        return {
          to: msg.to[0]!,
          subject: parsed.subject!,
          pixel: /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/.exec(parsed.html as string)![1]!,
          link: /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/.exec(parsed.html as string)?.[1],
        };
      }),
    );
  };
  const addGroup = (group: string, n: number) =>
    upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: Array.from({ length: n }, (_, i) => ({
        email: `${group}${i}@dest.test`,
        defaultSubscribed: true,
        patch: { group },
      })),
    });

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    project = sender.project;
    projectId = sender.project.id;
  });
  afterAll(() => m.close());

  it(
    'refuses bad tests: one or six variants, testPercent out of 5–50, a bad wait, ' +
      'variants without abTest, a winner without a test',
    async () => {
      const abTest = { testPercent: 20, metric: 'opens', waitFor: '1h' };
      expectValidation(
        await req('POST', '/campaigns', { ...base('x'), variants: [{ subject: 'only' }], abTest }),
        'variants',
      );
      expectValidation(
        await req('POST', '/campaigns', {
          ...base('x'),
          variants: Array.from({ length: 6 }, (_, i) => ({ subject: `v${i}` })),
          abTest,
        }),
        'variants',
      );
      for (const testPercent of [0, 4, 51, 60])
        expectValidation(
          await req('POST', '/campaigns', { ...base('x'), variants, abTest: { ...abTest, testPercent } }),
          'abTest.testPercent',
        );
      expectValidation(
        await req('POST', '/campaigns', { ...base('x'), variants, abTest: { ...abTest, waitFor: 'soon' } }),
        'abTest.waitFor',
      );
      expectValidation(
        await req('POST', '/campaigns', { ...base('x'), variants, abTest: { ...abTest, metric: 'replies' } }),
        'abTest.metric',
      );
      expectValidation(await req('POST', '/campaigns', { ...base('x'), variants }), 'abTest');
      expectValidation(await req('POST', '/campaigns', { ...base('x'), abTest }), 'variants');
      expect(
        (await req('POST', '/campaigns', { ...base('x'), variants: [{ from: 'news@elsewhere.test' }, {}], abTest }))
          .statusCode,
      ).toBe(403);
      expect(
        (await req('POST', '/campaigns', { ...base('x'), variants: [{ subject: '{{ broken' }, {}], abTest }))
          .statusCode,
      ).toBe(422);

      const plain = (await req('POST', '/campaigns', base('x'))).json().data.id;
      const noTest = await req('POST', `/campaigns/${plain}/winner`, { variantId: 'A' });
      expect(noTest.statusCode).toBe(409);
      expect(noTest.json().error.message).toMatch(/no A\/B test/);
      const created = await req('POST', '/campaigns', { ...base('x'), variants, abTest });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject({
        variants: [
          { id: 'A', subject: 'Subject A' },
          { id: 'B', subject: 'Subject B' },
        ],
        abTest,
        winnerVariantId: null,
      });
      // still a DRAFT
      expect((await req('POST', `/campaigns/${created.json().data.id}/winner`, { variantId: 'A' })).statusCode).toBe(
        409,
      );
      expectValidation(
        await req('POST', `/campaigns/${created.json().data.id}/winner`, { variantId: 'C' }),
        'variantId',
      );
      // PATCH checks the same: one or six variants, a share out of 5–50, each a 422 in the error envelope.
      const draft = created.json().data.id as string;
      expectValidation(await req('PATCH', `/campaigns/${draft}`, { variants: [{ subject: 'only' }] }), 'variants');
      expectValidation(
        await req('PATCH', `/campaigns/${draft}`, {
          variants: Array.from({ length: 6 }, (_, i) => ({ subject: `v${i}` })),
        }),
        'variants',
      );
      for (const testPercent of [0, 60])
        expectValidation(
          await req('PATCH', `/campaigns/${draft}`, { abTest: { ...abTest, testPercent } }),
          'abTest.testPercent',
        );
      expect((await req('GET', `/campaigns/${draft}`)).json().data).toMatchObject({
        variants: [{ id: 'A' }, { id: 'B' }],
        abTest,
      });
      // A duplicate is the same test.
      const copy = await req('POST', `/campaigns/${draft}/duplicate`);
      expect(copy.statusCode, copy.body).toBe(201);
      expect(copy.json().data).toMatchObject({
        status: 'DRAFT',
        variants: [
          { id: 'A', subject: 'Subject A' },
          { id: 'B', subject: 'Subject B', body: variants[1]!.body },
        ],
        abTest,
      });
      // PATCH can take the test off again.
      expect((await req('PATCH', `/campaigns/${draft}`, { variants: null, abTest: null })).json().data).toMatchObject({
        variants: null,
        abTest: null,
      });
    },
  );

  it(
    "checks each variant's sender again at send time, as the campaign's own: a domain " + 'no longer verified is a 403',
    async () => {
      const second = await m.verifiedDomain('second.test', project);
      await addGroup('s', 4);
      const created = await req('POST', '/campaigns', {
        ...base('s'),
        variants: [{}, { from: 'Offers@Second.test', fromName: 'Offers' }],
        abTest: { testPercent: 50, metric: 'opens', waitFor: '1h' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.variants).toEqual([
        { id: 'A' },
        { id: 'B', from: 'offers@second.test', fromName: 'Offers' },
      ]);
      const id = created.json().data.id as string;
      expect((await req('DELETE', `/domains/${second.domainId}`)).statusCode).toBe(200);
      const refused = expectError(await req('POST', `/campaigns/${id}/send`), 403, 'DOMAIN_NOT_VERIFIED');
      expect(refused.error.message).toContain('offers@second.test');
      expect((await req('GET', `/campaigns/${id}`)).json().data).toMatchObject({ status: 'DRAFT', recipientCount: 4 });
    },
  );

  it(
    'sends the test share evenly, waits TESTING, then the best human open rate goes ' +
      'to the rest; one email per recipient',
    { timeout: 90_000 },
    async () => {
      await addGroup('w', 40);
      const id = (
        await req('POST', '/campaigns', {
          ...base('w'),
          variants,
          abTest: { testPercent: 50, metric: 'opens', waitFor: '20s' },
        })
      ).json().data.id;
      const before = m.sink.messages.length;
      expect((await req('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
      expect(await statusOf(id)).toBe('TESTING');
      await m.sink.waitForMessages(before + 20, 20_000);
      const test = await received('w');
      expect(test).toHaveLength(20);
      const a = test.filter((r) => r.subject === 'Subject A');
      const b = test.filter((r) => r.subject === 'Subject B');
      expect([a.length, b.length]).toEqual([10, 10]);
      // A is opened more, but by Apple's prefetch; B by three people.
      for (const r of a.slice(0, 6))
        await m.t.app.inject({
          method: 'GET',
          url: r.pixel,
          remoteAddress: '127.0.0.1',
          headers: { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '17.10.0.1' },
        });
      for (const r of b.slice(0, 3))
        await m.t.app.inject({ method: 'GET', url: r.pixel, headers: { 'user-agent': browser } });
      expect(await statusOf(id)).toBe('TESTING');
      const during = (await req('GET', `/campaigns/${id}/stats`)).json().data;
      expect(during.variants).toEqual([
        expect.objectContaining({ id: 'A', recipients: 10, opened: 6, humanOpened: 0, winner: false }),
        expect.objectContaining({ id: 'B', recipients: 10, opened: 3, humanOpened: 3, winner: false }),
      ]);

      await until(async () => (await statusOf(id)) === 'SENT', 'the rest sent after the wait', 60_000);
      const all = await received('w');
      expect(all).toHaveLength(40);
      expect(new Set(all.map((r) => r.to)).size).toBe(40);
      expect(all.filter((r) => r.subject === 'Subject B')).toHaveLength(30);
      const view = (await req('GET', `/campaigns/${id}`)).json().data;
      expect(view).toMatchObject({ winnerVariantId: 'B', recipientCount: 40 });
      const after = (await req('GET', `/campaigns/${id}/stats`)).json().data;
      expect(after).toMatchObject({ recipients: 40, sent: 40 });
      expect(after.variants).toEqual([
        expect.objectContaining({ id: 'A', recipients: 10, winner: false }),
        expect.objectContaining({ id: 'B', recipients: 30, winner: true }),
      ]);
    },
  );

  it('a winner picked by hand ends the wait at once; it cannot be picked twice', async () => {
    await addGroup('h', 30);
    const id = (
      await req('POST', '/campaigns', {
        ...base('h'),
        variants: [...variants, { subject: 'Subject C', fromName: 'C team' }],
        abTest: { testPercent: 30, metric: 'clicks', waitFor: '1d' },
      })
    ).json().data.id;
    const before = m.sink.messages.length;
    await req('POST', `/campaigns/${id}/send`);
    await m.sink.waitForMessages(before + 9, 20_000);
    const subjects = (await received('h')).map((r) => r.subject).sort();
    expect(subjects).toEqual([
      'Subject A',
      'Subject A',
      'Subject A',
      'Subject B',
      'Subject B',
      'Subject B',
      'Subject C',
      'Subject C',
      'Subject C',
    ]);
    await until(async () => (await req('GET', `/campaigns/${id}`)).json().data.testEndsAt !== null, 'the wait started');
    const picked = await req('POST', `/campaigns/${id}/winner`, { variantId: 'c' });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().data).toMatchObject({ status: 'SENDING', winnerVariantId: 'C' });
    expect((await req('POST', `/campaigns/${id}/winner`, { variantId: 'A' })).statusCode).toBe(409);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 60_000);
    const all = await received('h');
    expect(all).toHaveLength(30);
    expect(new Set(all.map((r) => r.to)).size).toBe(30);
    expect(all.filter((r) => r.subject === 'Subject C')).toHaveLength(24);
    const fromC = m.sink.messages.filter(
      (msg) => msg.to[0]!.startsWith('h') && msg.raw.toString().includes('From: C team'),
    );
    expect(fromC).toHaveLength(24);
  });

  it(
    "a clicks test is won by people's clicks: a scanner's clicks on the other variant count in clicked only",
    { timeout: 90_000 },
    async () => {
      await addGroup('k', 20);
      const body = '<p><a href="https://example.test/offer">offer</a></p><a href="{{unsubscribeUrl}}">u</a>';
      const id = (
        await req('POST', '/campaigns', {
          ...base('k'),
          body,
          variants: [{ subject: 'Subject A' }, { subject: 'Subject B' }],
          abTest: { testPercent: 50, metric: 'clicks', waitFor: '30s' },
        })
      ).json().data.id;
      await req('POST', `/campaigns/${id}/send`);
      await until(
        async () => (await req('GET', `/campaigns/${id}/stats`)).json().data.sent === 10,
        'the test share handed over and recorded',
        20_000,
      );
      // Clicks a minute after the handoff (an instant click is a scanner's whatever its agent).
      await m.t.ctx.db.execute(
        sql`UPDATE emails SET sent_at = now() - interval '1 minute' WHERE source_id = ${id}::uuid`,
      );
      const test = await received('k');
      const a = test.filter((r) => r.subject === 'Subject A');
      const b = test.filter((r) => r.subject === 'Subject B');
      // A: four scanner clicks (HEAD requests, a scanner's agent); B: two people.
      for (const r of a.slice(0, 2))
        expect(
          (await m.t.app.inject({ method: 'HEAD', url: r.link!, headers: { 'user-agent': browser } })).statusCode,
        ).toBe(302);
      for (const r of a.slice(2, 4))
        await m.t.app.inject({
          method: 'GET',
          url: r.link!,
          headers: { 'user-agent': 'Mozilla/5.0 (compatible; Barracuda Sentinel)' },
        });
      for (const r of b.slice(0, 2))
        await m.t.app.inject({ method: 'GET', url: r.link!, headers: { 'user-agent': browser } });
      const during = (await req('GET', `/campaigns/${id}/stats`)).json().data;
      expect(during).toMatchObject({ clicked: 6, humanClicked: 2 });
      expect(during.variants).toEqual([
        expect.objectContaining({ id: 'A', sent: 5, clicked: 4, humanClicked: 0, clickRate: 0, winner: false }),
        expect.objectContaining({ id: 'B', sent: 5, clicked: 2, humanClicked: 2, clickRate: 0.4, winner: false }),
      ]);
      expect(await statusOf(id)).toBe('TESTING');

      await until(async () => (await statusOf(id)) === 'SENT', 'the rest sent after the wait', 60_000);
      expect((await req('GET', `/campaigns/${id}`)).json().data.winnerVariantId).toBe('B');
      const all = await received('k');
      expect(all).toHaveLength(20);
      expect(all.filter((r) => r.subject === 'Subject B')).toHaveLength(15);
    },
  );
});

// The share's walk outruns any request made after the send, so this one drives the fan-out's jobs by hand (no worker):
// a winner picked between its batches, and the share's next batch arriving after the pick, as a slow worker's would.
describe('a winner picked while the test share is still being queued', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  const req = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    // 501 contacts: the share's walk takes two batches.
    await upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId: sender.project.id,
      rows: Array.from({ length: FANOUT_BATCH + 1 }, (_, i) => ({ email: `q${i}@dest.test`, defaultSubscribed: true })),
    });
  });
  afterAll(() => m.close());

  it(
    'ends the test there: the share queued so far keeps its variants, everyone else ' +
      'gets the winner, nobody two emails',
    async () => {
      const created = await req('POST', '/campaigns', {
        name: 'walk',
        subject: 'Plain',
        body: '<p>Hi</p><a href="{{unsubscribeUrl}}">u</a>',
        from: 'news@example.test',
        audienceType: 'ALL',
        variants: [{ subject: 'Subject A' }, { subject: 'Subject B' }],
        abTest: { testPercent: 50, metric: 'opens', waitFor: '1d' },
      });
      const campaignId = created.json().data.id as string;
      expect((await req('POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
      await fanoutBatch(m.t.ctx, { campaignId, after: null, phase: 'TEST' });
      const midway = (await findCampaignById(m.t.ctx.db, campaignId))!;
      expect(midway).toMatchObject({ status: 'TESTING', fanoutDone: false, fanoutPhase: 'TEST' });

      const picked = await req('POST', `/campaigns/${campaignId}/winner`, { variantId: 'B' });
      expect(picked.statusCode, picked.body).toBe(200);
      expect(picked.json().data).toMatchObject({ status: 'SENDING', winnerVariantId: 'B', testEndsAt: null });
      // The share's second batch, late: the test is over, it queues nothing.
      await fanoutBatch(m.t.ctx, { campaignId, after: midway.fanoutCursor, phase: 'TEST' });
      // The rest's walk, from the start: those with a test variant are skipped.
      for (let after: string | null = null, done = false; !done; ) {
        await fanoutBatch(m.t.ctx, { campaignId, after, phase: 'REST' });
        const row = (await findCampaignById(m.t.ctx.db, campaignId))!;
        ({ fanoutCursor: after, fanoutDone: done } = row);
      }
      const stats = (await req('GET', `/campaigns/${campaignId}/stats`)).json().data;
      expect(stats.recipients).toBe(FANOUT_BATCH + 1);
      // Half of the first batch had the test (A and B in turn); B to the other 251.
      expect(stats.variants.map((v: { id: string; recipients: number }) => [v.id, v.recipients])).toEqual([
        ['A', 125],
        ['B', 376],
      ]);
      const perContact = rowsOf<{ n: number }>(
        await m.t.ctx.db.execute(
          sql`SELECT count(*)::int AS n FROM emails WHERE source_id = ${campaignId}::uuid GROUP BY contact_id HAVING
          count(*) > 1`,
        ),
      );
      expect(perContact).toEqual([]);
    },
  );
});
