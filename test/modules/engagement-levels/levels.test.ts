// Engagement levels at their boundaries, the same in the contact view, the `engagement` filter condition and the
// overview's counts; dormantAfterDays moves them and is validated; the daily sunset unsubscribes dormant contacts once,
// through the contacts' own path (events recorded), and resumes from its checkpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { runSunsetSweep, sunsetDormantContacts } from '../../../src/modules/contacts/contacts.sunset.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;

describe('engagement levels, the filter condition and sunsetting', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let projectId: string;
  const ids = new Map<string, string>();
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  /** A contact with these figures, ages in days before now (null: never). */
  async function contact(
    name: string,
    f: { first?: number | null; last?: number | null; open?: number | null; click?: number | null },
  ) {
    const id = (await req('POST', '/contacts', { email: `${name}@lv.test`, data: { lv: true } })).json().data.id;
    const ago = (days: number | null | undefined) =>
      days === null || days === undefined ? null : new Date(Date.now() - days * DAY).toISOString();
    await t.ctx.db.execute(sql`UPDATE contacts SET first_marketing_at = ${ago(f.first)}::timestamptz,
      last_marketing_at = ${ago(f.last ?? f.first)}::timestamptz, last_human_open_at = ${ago(f.open)}::timestamptz,
      last_human_click_at = ${ago(f.click)}::timestamptz, marketing_received = ${f.first == null ? 0 : 3}
      WHERE id = ${id}::uuid`);
    ids.set(name, id);
  }
  const level = async (name: string) => (await req('GET', `/contacts/${ids.get(name)}`)).json().data.engagement.level;
  const matching = async (lv: string) => {
    const res = await req('POST', '/segments', {
      name: `level ${lv} ${Math.random()}`,
      filter: { all: [{ field: 'data.lv', operator: 'equals', value: true }, { engagement: lv }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.memberCount as number;
  };
  const minutes = (m: number) => (m * MINUTE) / DAY;

  beforeAll(async () => {
    t = await createTestApp();
    const p = await t.createProject();
    auth = p.auth;
    projectId = p.id;
    await contact('fresh', {});
    // 180 days is the default: one just inside, one just past, on either side of each boundary.
    await contact('neverOpenedYoung', { first: 180 - minutes(5), last: 1 });
    await contact('neverOpenedOld', { first: 180 + minutes(5), last: 1 });
    await contact('openedJustInside', { first: 400, last: 1, open: 180 - minutes(5) });
    await contact('openedJustPast', { first: 400, last: 1, open: 180 + minutes(5) });
    await contact('clickedRecently', { first: 400, last: 1, open: 200, click: 90 - minutes(5) });
    await contact('clickedHalfPast', { first: 400, last: 1, click: 90 + minutes(5) });
    // Quiet for long, but no mail since their last click: not dormant (we stopped mailing them).
    await contact('notMailedSince', { first: 400, last: 300, click: 250 });
  });
  afterAll(() => t.close());

  it('puts each contact at its level by the documented boundaries', async () => {
    expect(await level('fresh')).toBe('new');
    expect(await level('neverOpenedYoung')).toBe('at_risk');
    expect(await level('neverOpenedOld')).toBe('dormant');
    expect(await level('openedJustInside')).toBe('at_risk');
    expect(await level('openedJustPast')).toBe('dormant');
    expect(await level('clickedRecently')).toBe('engaged');
    expect(await level('clickedHalfPast')).toBe('at_risk');
    expect(await level('notMailedSince')).toBe('at_risk');
    const scores = (await req('GET', '/contacts?limit=50')).json().data.items as {
      id: string;
      engagement: { score: number };
    }[];
    const score = (name: string) => scores.find((c) => c.id === ids.get(name))!.engagement.score;
    expect(score('fresh')).toBe(0);
    expect(score('clickedRecently')).toBe(
      Math.round(100 * (0.6 * 2 ** (-(90 - minutes(5)) / 30) + 0.4 * 2 ** (-(90 - minutes(5)) / 30))),
    );
    expect(score('openedJustPast')).toBe(Math.round(60 * 2 ** (-(180 + minutes(5)) / 30)));
  });

  it('filters and counts by the same rules', async () => {
    expect(await matching('new')).toBe(1);
    expect(await matching('engaged')).toBe(1);
    expect(await matching('at_risk')).toBe(4);
    expect(await matching('dormant')).toBe(2);
    expect((await req('GET', '/contacts/engagement')).json().data).toEqual({
      new: 1,
      engaged: 1,
      at_risk: 4,
      dormant: 2,
    });
    const bad = await req('POST', '/segments', { name: 'x', filter: { engagement: 'sleepy' } });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().error.errors)).toContain('engagement');
  });

  it('follows dormantAfterDays, which is validated', async () => {
    for (const bad of [0, 6, 3651, 30.5, '30'])
      expect((await req('PATCH', '/settings', { dormantAfterDays: bad })).statusCode, String(bad)).toBe(422);
    expect((await req('PATCH', '/settings', { sunset: { action: 'later' } })).statusCode).toBe(422);
    const set = await req('PATCH', '/settings', { dormantAfterDays: 365 });
    expect(set.json().data).toMatchObject({ dormantAfterDays: 365, sunset: { action: 'none' } });
    // Opened 180 days ago is within the last half of 365 days; never opened in 180 days is no longer dormant.
    expect(await level('openedJustPast')).toBe('engaged');
    expect(await level('neverOpenedOld')).toBe('at_risk');
    expect(await matching('dormant')).toBe(0);
    await req('PATCH', '/settings', { dormantAfterDays: 180 });
    expect(await matching('dormant')).toBe(2);
  });

  it('sunsets dormant contacts once a day when asked, with their events, resuming from the checkpoint', async () => {
    // Off by default: nothing happens.
    await sunsetDormantContacts(t.ctx);
    expect(await matching('dormant')).toBe(2);
    expect((await req('PATCH', '/settings', { sunset: { action: 'unsubscribe' } })).statusCode).toBe(200);
    // A sweep stopped after its first batch (one contact walked), then resumed by the day's run.
    const day = new Date().toISOString().slice(0, 10);
    const ordered = [...ids.values()].sort();
    await t.ctx.db.execute(sql`INSERT INTO engagement_sweeps (project_id, day, cursor) VALUES (${projectId}::uuid,
      ${day}::date, ${ordered[0]!}::uuid)`);
    // The dormant contact walked before the checkpoint is left for the next day, as a stopped sweep would have done it.
    const skipped = ordered[0] === ids.get('neverOpenedOld') || ordered[0] === ids.get('openedJustPast');
    expect(await runSunsetSweep({ db: t.ctx.db, projectId, day, batchSize: 2 })).toBe(skipped ? 1 : 2);
    // The same day again: finished, nothing more.
    expect(await runSunsetSweep({ db: t.ctx.db, projectId, day })).toBeNull();
    const contacts = (await req('GET', '/contacts?limit=50')).json().data.items as {
      id: string;
      subscribed: boolean;
    }[];
    const nameOf = (id: string) => [...ids].find(([, v]) => v === id)![0];
    const unsubscribed = contacts
      .filter((c) => !c.subscribed)
      .map((c) => nameOf(c.id))
      .sort();
    const expected = ['neverOpenedOld', 'openedJustPast'].filter((n) => !(skipped && ids.get(n) === ordered[0]));
    expect(unsubscribed).toEqual(expected.sort());
    for (const name of expected) {
      const events = (await req('GET', `/events?contactId=${ids.get(name)}&name=contact.unsubscribed`)).json().data
        .items;
      expect(events).toHaveLength(1);
    }
    // The next day's sweep takes the rest, and only once.
    const tomorrow = new Date(Date.now() + DAY);
    await sunsetDormantContacts(t.ctx, tomorrow);
    await sunsetDormantContacts(t.ctx, tomorrow);
    for (const name of ['neverOpenedOld', 'openedJustPast']) {
      const events = (await req('GET', `/events?contactId=${ids.get(name)}&name=contact.unsubscribed`)).json().data
        .items;
      expect(events).toHaveLength(1);
      // The consent ledger names sunsetting as the way the unsubscribe came.
      const ledger = (await req('GET', `/contacts/${ids.get(name)}/consent`)).json().data as {
        action: string;
        source: { type: string };
      }[];
      expect(ledger.at(-1)).toMatchObject({ action: 'unsubscribed', source: { type: 'sunset' } });
    }
    expect((await req('GET', '/contacts?subscribed=false&limit=50')).json().data.items).toHaveLength(2);
  });
});
