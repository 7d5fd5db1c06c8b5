// A/B tests end to end: the test share split evenly, TESTING while waiting, the winner by people's opens (machines'
// do not count) after waitFor or picked by hand, the rest with the winner, nobody with two variants; bad inputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';

describe('A/B tests', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let projectId: string;
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const statusOf = async (id: string) => (await req('GET', `/campaigns/${id}`)).json().data.status as string;
  const base = (group: string) => ({
    name: `ab ${group}`, subject: 'Plain', body: '<p>Hello</p><a href="{{unsubscribeUrl}}">u</a>', from: 'news@example.test',
    audienceType: 'FILTERED', audienceFilter: { field: 'data.group', operator: 'equals', value: group },
  });
  const variants = [{ subject: 'Subject A' }, { subject: 'Subject B', body: '<p>Hello from B</p><a href="{{unsubscribeUrl}}">u</a>' }];
  /** What each recipient of the group received: subjects, and the open pixel of the first. */
  const received = async (group: string) => {
    const mine = m.sink.messages.filter((msg) => msg.to[0]!.startsWith(group));
    return Promise.all(mine.map(async (msg) => {
      const parsed = await simpleParser(msg.raw);
      return { to: msg.to[0]!, subject: parsed.subject!, pixel: /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/.exec(parsed.html as string)![1]! };
    }));
  };
  const addGroup = (group: string, n: number) => upsertContacts({
    db: m.t.ctx.db, projectId, rows: Array.from({ length: n }, (_, i) => ({ email: `${group}${i}@dest.test`, defaultSubscribed: true, patch: { group } })),
  });

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    projectId = sender.project.id;
  });
  afterAll(() => m.close());

  it('refuses bad tests: one or six variants, testPercent out of 5–50, a bad wait, variants without abTest, a winner without a test', async () => {
    const abTest = { testPercent: 20, metric: 'opens', waitFor: '1h' };
    expectValidation(await req('POST', '/campaigns', { ...base('x'), variants: [{ subject: 'only' }], abTest }), 'variants');
    expectValidation(await req('POST', '/campaigns', { ...base('x'), variants: Array.from({ length: 6 }, (_, i) => ({ subject: `v${i}` })), abTest }), 'variants');
    for (const testPercent of [0, 4, 51, 60]) expectValidation(await req('POST', '/campaigns', { ...base('x'), variants, abTest: { ...abTest, testPercent } }), 'abTest.testPercent');
    expectValidation(await req('POST', '/campaigns', { ...base('x'), variants, abTest: { ...abTest, waitFor: 'soon' } }), 'abTest.waitFor');
    expectValidation(await req('POST', '/campaigns', { ...base('x'), variants, abTest: { ...abTest, metric: 'replies' } }), 'abTest.metric');
    expectValidation(await req('POST', '/campaigns', { ...base('x'), variants }), 'abTest');
    expectValidation(await req('POST', '/campaigns', { ...base('x'), abTest }), 'variants');
    expect((await req('POST', '/campaigns', { ...base('x'), variants: [{ from: 'news@elsewhere.test' }, {}], abTest })).statusCode).toBe(403);
    expect((await req('POST', '/campaigns', { ...base('x'), variants: [{ subject: '{{ broken' }, {}], abTest })).statusCode).toBe(422);

    const plain = (await req('POST', '/campaigns', base('x'))).json().data.id;
    const noTest = await req('POST', `/campaigns/${plain}/winner`, { variantId: 'A' });
    expect(noTest.statusCode).toBe(409);
    expect(noTest.json().error.message).toMatch(/no A\/B test/);
    const created = await req('POST', '/campaigns', { ...base('x'), variants, abTest });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ variants: [{ id: 'A', subject: 'Subject A' }, { id: 'B', subject: 'Subject B' }], abTest, winnerVariantId: null });
    expect((await req('POST', `/campaigns/${created.json().data.id}/winner`, { variantId: 'A' })).statusCode).toBe(409); // still a DRAFT
    expectValidation(await req('POST', `/campaigns/${created.json().data.id}/winner`, { variantId: 'C' }), 'variantId');
    // PATCH can take the test off again.
    expect((await req('PATCH', `/campaigns/${created.json().data.id}`, { variants: null, abTest: null })).json().data).toMatchObject({ variants: null, abTest: null });
  });

  it('sends the test share evenly, waits TESTING, then the best human open rate goes to the rest; one email per recipient', { timeout: 90_000 }, async () => {
    await addGroup('w', 40);
    const id = (await req('POST', '/campaigns', { ...base('w'), variants, abTest: { testPercent: 50, metric: 'opens', waitFor: '20s' } })).json().data.id;
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
    for (const r of a.slice(0, 6)) await m.t.app.inject({ method: 'GET', url: r.pixel, remoteAddress: '127.0.0.1', headers: { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '17.10.0.1' } });
    for (const r of b.slice(0, 3)) await m.t.app.inject({ method: 'GET', url: r.pixel, headers: { 'user-agent': browser } });
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
    expect(after.variants).toEqual([expect.objectContaining({ id: 'A', recipients: 10, winner: false }), expect.objectContaining({ id: 'B', recipients: 30, winner: true })]);
  });

  it('a winner picked by hand ends the wait at once; it cannot be picked twice', async () => {
    await addGroup('h', 30);
    const id = (await req('POST', '/campaigns', { ...base('h'), variants: [...variants, { subject: 'Subject C', fromName: 'C team' }], abTest: { testPercent: 30, metric: 'clicks', waitFor: '1d' } })).json().data.id;
    const before = m.sink.messages.length;
    await req('POST', `/campaigns/${id}/send`);
    await m.sink.waitForMessages(before + 9, 20_000);
    const subjects = (await received('h')).map((r) => r.subject).sort();
    expect(subjects).toEqual(['Subject A', 'Subject A', 'Subject A', 'Subject B', 'Subject B', 'Subject B', 'Subject C', 'Subject C', 'Subject C']);
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
    const fromC = m.sink.messages.filter((msg) => msg.to[0]!.startsWith('h') && msg.raw.toString().includes('From: C team'));
    expect(fromC).toHaveLength(24);
  });
});
