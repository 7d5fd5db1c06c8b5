// Send-time optimisation end to end (worker in-process): each recipient's email is due at the hour of the week they
// most often opened or clicked as a person within the window (ties: the earliest), without history at 10:00 in their
// own or the project's time zone; a holdout share goes at once; the stats compare both groups; bad windows are 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { rowsOf } from '../../../src/db/rows.ts';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { expectValidation } from '../../support/envelope.ts';

const HOUR = 3_600_000;
/** Hour of the week in UTC, Monday 00:00 = 0, computed here on its own. */
const weekHour = (t: number) => ((new Date(t).getUTCDay() + 6) % 7) * 24 + new Date(t).getUTCHours();
const floorHour = (t: number) => Math.floor(t / HOUR) * HOUR;
/** The next time the UTC clock shows hh:mm from `start` (the hour under way counts as now). */
function nextUtc(start: number, hh: number, mm: number): number {
  const day = new Date(start);
  let at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hh, mm);
  if (at + HOUR <= start) at += 24 * HOUR;
  return Math.max(at, start);
}

describe('send-time optimisation', () => {
  const s = {} as { m: MailFixture; auth: { authorization: string }; projectId: string };
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    s.m.t.app.inject({
      method,
      url,
      headers: s.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const campaign = async (group: string) => {
    const res = await req('POST', '/campaigns', {
      name: `sto ${group}`,
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.group', operator: 'equals', value: group },
      subject: 'Hello',
      body: '<p>Hi</p>',
      from: 'news@sto.test',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const emailsOf = async (id: string) =>
    rowsOf<{ to_email: string; scheduled_at: string | Date | null; send_time_group: string; status: string }>(
      await s.m.t.ctx.db.execute(sql`SELECT to_email, scheduled_at, send_time_group, status FROM emails
        WHERE source_id = ${id}::uuid`),
    );
  const histogram = (counts: Record<number, number>) =>
    `{${Array.from({ length: 168 }, (_, i) => counts[i] ?? 0).join(',')}}`;

  beforeAll(async () => {
    s.m = await startMailFixture();
    const sender = await s.m.verifiedDomain('sto.test');
    s.auth = sender.auth;
    s.projectId = sender.project.id;
    // The project's zone is Tokyo (UTC+9, no summer time): 10:00 there is 01:00 UTC.
    expect((await req('PATCH', '/settings', { timezone: 'Asia/Tokyo' })).statusCode).toBe(200);
  });
  afterAll(() => s.m.close());

  it('refuses windows of 0, of 40 days, and a holdout outside 0–50 % (422)', async () => {
    const id = await campaign('none');
    for (const sendAt of [
      { optimize: { within: '0h' } },
      { optimize: { within: '0' } },
      { optimize: { within: '40d' } },
      { optimize: { within: '30m' } },
      { optimize: { within: '24h' }, holdoutPercent: 60 },
      { optimize: { within: '24h' }, holdoutPercent: -1 },
    ]) {
      const res = await req('POST', `/campaigns/${id}/send`, { sendAt });
      expect(res.statusCode, JSON.stringify(sendAt)).toBe(422);
    }
    expectValidation(
      await req('POST', `/campaigns/${id}/send`, { sendAt: { optimize: { within: '40d' } } }),
      'sendAt.optimize.within',
    );
    expect((await req('GET', `/campaigns/${id}`)).json().data.status).toBe('DRAFT');
  });

  it('schedules each recipient at their best hour in the window, else 10:00 in their zone', async () => {
    const now = Date.now();
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: ['peak', 'tie', 'daily', 'plain', 'india'].map((name) => ({
        email: `${name}@dest.test`,
        defaultSubscribed: true,
        patch: { group: 'sto', ...(name === 'india' ? { timezone: 'Asia/Kolkata' } : {}) },
      })),
    });
    const set = (email: string, counts: Record<number, number>) =>
      s.m.t.ctx.db.execute(sql`UPDATE contacts SET engagement_hours = ${histogram(counts)}::int[]
        WHERE project_id = ${s.projectId}::uuid AND email = ${email}`);
    await set('peak@dest.test', { [weekHour(now + 5 * HOUR)]: 3, [weekHour(now + 2 * HOUR)]: 1 });
    await set('tie@dest.test', { [weekHour(now + 3 * HOUR)]: 2, [weekHour(now + 7 * HOUR)]: 2 });
    // Its one hour of the week is outside a 24 h window: the same hour of the day (on another day) is taken.
    await set('daily@dest.test', { [weekHour(now + 50 * HOUR)]: 4 });

    const id = await campaign('sto');
    const sent = await req('POST', `/campaigns/${id}/send`, {
      sendAt: { optimize: { within: '24h' }, holdoutPercent: 0 },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    await until(async () => (await emailsOf(id)).length === 5, 'five emails queued');
    const view = (await req('GET', `/campaigns/${id}`)).json().data;
    expect(view).toMatchObject({ status: 'SENDING', optimize: { within: '24h', holdoutPercent: 0 } });
    const start = Date.parse(view.sentAt);
    const emails = Object.fromEntries((await emailsOf(id)).map((e) => [e.to_email.split('@')[0], e]));
    const due = (name: string) => {
      const at = emails[name]!.scheduled_at;
      return at === null ? null : new Date(at).getTime();
    };
    expect(due('peak')).toBe(floorHour(now + 5 * HOUR));
    expect(due('tie')).toBe(floorHour(now + 3 * HOUR));
    expect(due('daily')).toBe(floorHour(now + 2 * HOUR));
    // No history: 10:00 in Tokyo (01:00 UTC), or in Kolkata for the contact living there (04:30 UTC).
    const expectDefault = (name: string, at: number) =>
      at <= start + 1000 ? expect(emails[name]!.status).not.toBe('SCHEDULED') : expect(due(name)).toBe(at);
    expectDefault('plain', nextUtc(start, 1, 0));
    expectDefault('india', nextUtc(start, 4, 30));
    for (const e of await emailsOf(id)) expect(e.send_time_group).toBe('optimized');
  });

  it('sends the holdout at once and reports both groups with their human rates', async () => {
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: Array.from({ length: 40 }, (_, i) => ({
        email: `h${i}@dest.test`,
        defaultSubscribed: true,
        patch: { group: 'holdout' },
      })),
    });
    // Everyone's best hour is three hours from now: the optimized group waits.
    const now = Date.now();
    await s.m.t.ctx.db.execute(sql`UPDATE contacts SET engagement_hours =
      ${histogram({ [weekHour(now + 3 * HOUR)]: 1 })}::int[] WHERE data->>'group' = 'holdout'`);
    const id = await campaign('holdout');
    const sent = await req('POST', `/campaigns/${id}/send`, {
      sendAt: { optimize: { within: '1d' }, holdoutPercent: 50 },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    await until(async () => (await emailsOf(id)).length === 40, 'forty emails queued');
    const emails = await emailsOf(id);
    const holdout = emails.filter((e) => e.send_time_group === 'holdout');
    const optimized = emails.filter((e) => e.send_time_group === 'optimized');
    // A draw of 50 % over 40 recipients (outside 8–32 has a chance below 1 in 10,000).
    expect(holdout.length).toBeGreaterThanOrEqual(8);
    expect(holdout.length).toBeLessThanOrEqual(32);
    for (const e of holdout) expect(e.scheduled_at).toBeNull();
    for (const e of optimized) expect(new Date(e.scheduled_at!).getTime()).toBe(floorHour(now + 3 * HOUR));
    await until(
      async () => (await emailsOf(id)).filter((e) => e.status === 'SENT').length === holdout.length,
      'the holdout sent',
    );
    // A person opens one holdout email.
    const first = holdout[0]!.to_email;
    const message = s.m.sink.messages.find((msg) => msg.to[0] === first)!;
    const html = (await simpleParser(message.raw)).html as string;
    const pixel = /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/.exec(html)![1]!;
    await s.m.t.app.inject({
      method: 'GET',
      url: pixel,
      remoteAddress: '127.0.0.1',
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120 Safari/537.36' },
    });
    const stats = (await req('GET', `/campaigns/${id}/stats`)).json().data;
    expect(stats.sendTime).toEqual({
      optimized: { recipients: optimized.length, sent: 0, humanOpened: 0, humanClicked: 0, openRate: 0, clickRate: 0 },
      holdout: {
        recipients: holdout.length,
        sent: holdout.length,
        humanOpened: 1,
        humanClicked: 0,
        openRate: Math.round((1 / holdout.length) * 10_000) / 10_000,
        clickRate: 0,
      },
    });
  });
});
