// A campaign sent at each recipient's local time (`sendAt`), end to end with the worker in-process: every email's
// due time is the wall-clock time in its contact's zone (checked here against the zones' own DST rules, written
// out below), zones already past go at once, the others wait in the queue while the campaign stays SCHEDULED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

const HOUR = 3_600_000;

/** The n-th (1-based; -1: last) Sunday of a month (0-based), as a UTC midnight. */
function sunday(year: number, month: number, n: number): number {
  if (n < 0) {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay());
  }
  const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return Date.UTC(year, month, 1 + ((7 - first) % 7) + (n - 1) * 7);
}

/** Each zone's offset (hours) at an instant, from its published rules (EU, US, New Zealand). */
const RULES: Record<string, { standard: number; dst: (instant: number, year: number) => boolean }> = {
  UTC: { standard: 0, dst: () => false },
  'Europe/Berlin': { standard: 1, dst: (t, y) => t >= sunday(y, 2, -1) + HOUR && t < sunday(y, 9, -1) + HOUR },
  'America/Los_Angeles': {
    standard: -8,
    dst: (t, y) => t >= sunday(y, 2, 2) + 10 * HOUR && t < sunday(y, 10, 1) + 9 * HOUR,
  },
  'America/New_York': {
    standard: -5,
    dst: (t, y) => t >= sunday(y, 2, 2) + 7 * HOUR && t < sunday(y, 10, 1) + 6 * HOUR,
  },
  // NZDT ends the first Sunday of April at 03:00 NZDT and starts the last Sunday of September at 02:00 NZST (14:00 UTC
  // the day before).
  'Pacific/Auckland': {
    standard: 12,
    dst: (t, y) => t < sunday(y, 3, 1) - 10 * HOUR || t >= sunday(y, 8, -1) - 10 * HOUR,
  },
};
const offsetAt = (zone: string, t: number) =>
  RULES[zone]!.standard + (RULES[zone]!.dst(t, new Date(t).getUTCFullYear()) ? 1 : 0);

/** When the wall clock of `zone` shows `time` on `date` (away from the small hours the clocks change in). */
function expectedDue(zone: string, date: string, time: string): number {
  const local = Date.parse(`${date}T${time}:00Z`);
  return local - offsetAt(zone, local - RULES[zone]!.standard * HOUR) * HOUR;
}

/** The date and HH:MM the wall clock of `zone` shows at an instant. */
function wallClock(zone: string, t: number): { date: string; time: string } {
  const iso = new Date(t + offsetAt(zone, t) * HOUR).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

describe("campaign sent at each recipient's local time", () => {
  const s = {} as { m: MailFixture; auth: { authorization: string }; projectId: string };
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    s.m.t.app.inject({
      method,
      url,
      headers: s.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const campaign = async (extra: Record<string, unknown> = {}) => {
    const res = await req('POST', '/campaigns', {
      name: 'local',
      audienceType: 'ALL',
      subject: 'Morning',
      body: '<p>Good morning</p>',
      from: 'news@local.test',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const view = async (id: string) => (await req('GET', `/campaigns/${id}`)).json().data;
  const emailsOf = async (id: string) => {
    const items = (await req('GET', `/emails?sourceId=${id}&limit=100`)).json().data.items as {
      to: string;
      status: string;
      scheduledAt: string | null;
    }[];
    return Object.fromEntries(items.map((e) => [e.to.split('@')[0]!, e]));
  };

  beforeAll(async () => {
    s.m = await startMailFixture();
    const sender = await s.m.verifiedDomain('local.test');
    s.auth = sender.auth;
    s.projectId = sender.project.id;
    expect((await req('PATCH', '/settings', { timezone: 'America/New_York' })).statusCode).toBe(200);
    await upsertContacts({
      db: s.m.t.ctx.db,
      consent: { type: 'api' },
      projectId: s.projectId,
      rows: [
        { email: 'akl@dest.test', defaultSubscribed: true, patch: { timezone: 'Pacific/Auckland' } },
        { email: 'ber@dest.test', defaultSubscribed: true, patch: { timezone: 'Europe/Berlin' } },
        { email: 'lax@dest.test', defaultSubscribed: true, patch: { timezone: 'America/Los_Angeles' } },
        { email: 'bogus@dest.test', defaultSubscribed: true, patch: { timezone: 'Mars/Olympus_Mons' } },
        { email: 'none@dest.test', defaultSubscribed: true, patch: { name: 'No zone' } },
      ],
    });
  });
  afterAll(() => s.m.close());

  it(
    "gives each email its zone's due time: a zone already past goes at once, the " +
      'others wait while the campaign is SCHEDULED',
    async () => {
      // Berlin's wall clock a few hours from now (2 or 6: whichever is not in the small hours when clocks change):
      // Auckland is then past, Berlin, New York (the project's zone) and Los Angeles still ahead.
      const now = Date.now();
      const ahead = [2, 6]
        .map((h) => wallClock('Europe/Berlin', now + h * HOUR))
        .find((w) => !['01', '02', '03'].includes(w.time.slice(0, 2)))!;
      const sendAt = { date: ahead.date, localTime: ahead.time };
      const due = (zone: string) => expectedDue(zone, sendAt.date, sendAt.localTime);
      // Whatever the season, one of these zones is on summer time.
      expect(
        ['Pacific/Auckland', 'Europe/Berlin', 'America/Los_Angeles'].some(
          (z) => offsetAt(z, due(z)) !== RULES[z]!.standard,
        ),
      ).toBe(true);
      expect(due('Pacific/Auckland')).toBeLessThan(now);

      const id = await campaign();
      const sent = await req('POST', `/campaigns/${id}/send`, { sendAt });
      expect(sent.statusCode, sent.body).toBe(202);
      // The audience is resolved at the first zone's turn (already past: now); Auckland's email goes out.
      await until(async () => (await emailsOf(id)).akl?.status === 'SENT', "Auckland's email sent");
      const emails = await emailsOf(id);
      expect(emails.akl).toMatchObject({ status: 'SENT', scheduledAt: null });
      expect(emails.ber).toMatchObject({
        status: 'SCHEDULED',
        scheduledAt: new Date(due('Europe/Berlin')).toISOString(),
      });
      expect(emails.lax).toMatchObject({
        status: 'SCHEDULED',
        scheduledAt: new Date(due('America/Los_Angeles')).toISOString(),
      });
      // No zone, or one that is no zone: the project's (counted as unknown).
      expect(emails.none).toMatchObject({
        status: 'SCHEDULED',
        scheduledAt: new Date(due('America/New_York')).toISOString(),
      });
      expect(emails.bogus).toMatchObject({
        status: 'SCHEDULED',
        scheduledAt: new Date(due('America/New_York')).toISOString(),
      });
      expect(s.m.sink.messages.filter((msg) => msg.from === 'news@local.test').map((msg) => msg.to[0])).toEqual([
        'akl@dest.test',
      ]);

      const campaignView = await view(id);
      expect(campaignView).toMatchObject({ status: 'SCHEDULED', sendAt, recipientCount: 5 });
      expect(campaignView.sentAt).not.toBeNull();
      const stats = (await req('GET', `/campaigns/${id}/stats`)).json().data;
      expect(stats).toMatchObject({ recipients: 5, sent: 1, localTime: { unknownTimeZones: 1 } });

      // Under way, only a cancel changes it; the waiting emails are cancelled with it.
      expect((await req('POST', `/campaigns/${id}/unschedule`)).statusCode).toBe(409);
      expect((await req('POST', `/campaigns/${id}/send`)).statusCode).toBe(409);
      expect((await req('PATCH', `/campaigns/${id}`, { subject: 'Later' })).statusCode).toBe(409);
      expect((await req('POST', `/campaigns/${id}/cancel`)).statusCode).toBe(202);
      expect((await view(id)).status).toBe('CANCELLED');
      const after = await emailsOf(id);
      expect(['ber', 'lax', 'none', 'bogus'].map((k) => after[k]!.status)).toEqual([
        'CANCELLED',
        'CANCELLED',
        'CANCELLED',
        'CANCELLED',
      ]);
      expect(s.m.sink.messages.filter((msg) => msg.from === 'news@local.test').length).toBe(1);
    },
  );

  it('sends at once to every zone already past that time, then becomes SENT', async () => {
    // Midnight of Los Angeles' today: past in every zone here, and the day is not over everywhere.
    const sendAt = { date: wallClock('America/Los_Angeles', Date.now()).date, localTime: '00:00' };
    const before = s.m.sink.messages.length;
    const id = await campaign();
    expect((await req('POST', `/campaigns/${id}/send`, { sendAt })).statusCode).toBe(202);
    await until(async () => (await view(id)).status === 'SENT', 'SENT', 30_000);
    expect(
      s.m.sink.messages
        .slice(before)
        .map((msg) => msg.to[0])
        .sort(),
    ).toEqual(['akl', 'ber', 'bogus', 'lax', 'none'].map((k) => `${k}@dest.test`));
    expect(Object.values(await emailsOf(id)).every((e) => e.scheduledAt === null)).toBe(true);
    expect((await req('GET', `/campaigns/${id}/stats`)).json().data).toMatchObject({
      recipients: 5,
      sent: 5,
      localTime: { unknownTimeZones: 1 },
    });
  });

  it(
    "uses UTC when the project names no time zone, and waits for the first zone's " +
      'turn before resolving the audience',
    async () => {
      const other = await s.m.verifiedDomain('utc.test');
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        s.m.t.app.inject({ method, url, headers: other.auth, ...(payload ? { payload } : {}) });
      await call('POST', '/contacts', { email: 'plain@dest.test' });
      const create = async () =>
        (
          await call('POST', '/campaigns', {
            name: 'utc',
            audienceType: 'ALL',
            subject: 'S',
            body: '<p>B</p>',
            from: 'news@utc.test',
          })
        ).json().data.id as string;

      const inAnHour = wallClock('UTC', Date.now() + HOUR);
      const id = await create();
      expect(
        (await call('POST', `/campaigns/${id}/send`, { sendAt: { date: inAnHour.date, localTime: inAnHour.time } }))
          .statusCode,
      ).toBe(202);
      const email = await until(
        async () => (await call('GET', `/emails?sourceId=${id}`)).json().data.items[0],
        'the email queued',
      );
      expect(email).toMatchObject({ status: 'SCHEDULED', scheduledAt: `${inAnHour.date}T${inAnHour.time}:00.000Z` });
      expect((await call('GET', `/campaigns/${id}/stats`)).json().data.localTime).toEqual({ unknownTimeZones: 0 });

      // Three days ahead, no zone's turn has come: an ordinary SCHEDULED campaign, resolved at UTC+14's turn, that can
      // be unscheduled.
      const later = new Date(Date.now() + 72 * HOUR).toISOString().slice(0, 10);
      const waiting = await create();
      expect(
        (await call('POST', `/campaigns/${waiting}/send`, { sendAt: { date: later, localTime: '09:00' } })).statusCode,
      ).toBe(202);
      expect((await call('GET', `/campaigns/${waiting}`)).json().data).toMatchObject({
        status: 'SCHEDULED',
        sendAt: { date: later, localTime: '09:00' },
        sentAt: null,
        scheduledAt: new Date(Date.parse(`${later}T09:00:00Z`) - 14 * HOUR).toISOString(),
      });
      expect((await call('GET', `/emails?sourceId=${waiting}`)).json().data.items).toEqual([]);
      const ab = await s.m.t.app.inject({
        method: 'PATCH',
        url: `/campaigns/${waiting}`,
        headers: other.auth,
        payload: { variants: [{}, { subject: 'B' }], abTest: { testPercent: 20, metric: 'opens', waitFor: '1h' } },
      });
      expect(ab.statusCode).toBe(422);
      expect(ab.json().error.errors[0]).toMatchObject({ field: 'abTest', code: 'local_time' });
      expect((await call('POST', `/campaigns/${waiting}/unschedule`)).json().data).toMatchObject({
        status: 'DRAFT',
        sendAt: null,
      });
    },
  );

  it('refuses bad times, dates, both times at once, and A/B tests (422)', async () => {
    const id = await campaign();
    const today = wallClock('America/Los_Angeles', Date.now()).date;
    const refused = async (body: unknown, field: string) => {
      const res = await req('POST', `/campaigns/${id}/send`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().error), JSON.stringify(body)).toContain(field);
    };
    for (const localTime of ['24:00', '9:00', '12:60', '09:00:00', '', 'noon'])
      await refused({ sendAt: { date: today, localTime } }, 'localTime');
    for (const date of ['2030-02-30', '2030-13-01', '0000-01-01', '30-01-01', '2030-1-1', 'tomorrow'])
      await refused({ sendAt: { date, localTime: '09:00' } }, 'date');
    await refused({ sendAt: { date: '2001-01-01', localTime: '09:00' } }, 'sendAt.date');
    await refused({ sendAt: { date: '9999-12-31', localTime: '23:00' } }, 'sendAt.date');
    await refused({ sendAt: { localTime: '09:00' } }, 'date');
    await refused(
      { sendAt: { date: today, localTime: '09:00' }, scheduledFor: new Date(Date.now() + HOUR).toISOString() },
      'sendAt',
    );
    const ab = await campaign({
      variants: [{}, { subject: 'B' }],
      abTest: { testPercent: 20, metric: 'opens', waitFor: '1h' },
    });
    const res = await req('POST', `/campaigns/${ab}/send`, { sendAt: { date: today, localTime: '09:00' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.errors[0]).toMatchObject({ field: 'sendAt', code: 'ab_test' });
    expect((await view(id)).status).toBe('DRAFT');
  });
});
