/**
 * What a sender domain may send: PATCH /domains/{id} {providerLimits, warmup} with its checks, the domain's view of
 * them (the warm-up's day, cap and what went today), the audit log, and GET /domains/{id}/throughput (and its
 * per-hour series) from the counts and throttles the sending engine keeps.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WARMUP_SCHEDULE } from '../../../src/modules/domains/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';

interface Warmup {
  enabled: boolean;
  day: number | null;
  cap: number | null;
  sentToday: number;
  schedule: number[];
  startedOn: string;
}

interface DomainBody {
  id: string;
  providerLimits: Record<string, number>;
  warmup: Warmup | null;
}

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const daysAgo = (n: number) => utcDay(new Date(Date.now() - n * DAY_MS));

describe('provider limits, warm-up and throughput of a sender domain', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  let other: Awaited<ReturnType<TestApp['createProject']>>;
  let domainId: string;

  const req = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: unknown, auth = project.auth) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const patch = (payload: unknown, id = domainId) => req('PATCH', `/domains/${id}`, payload);
  const patched = async (payload: unknown, id = domainId) => {
    const res = await patch(payload, id);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as DomainBody;
  };
  const get = async (id = domainId) => {
    const res = await req('GET', `/domains/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as DomainBody;
  };
  const addDomain = async (name: string) => {
    const res = await req('POST', '/domains', { domain: name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as DomainBody;
  };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Limits');
    other = await t.createProject('Other');
    domainId = (await addDomain('limits.example.test')).id;
  }, 60_000);
  afterAll(() => t.close());

  it('shows no limits and no warm-up on a new domain, in the list too', async () => {
    expect(await get()).toMatchObject({ providerLimits: {}, warmup: null });
    const list = (await req('GET', '/domains')).json().data.items as DomainBody[];
    expect(list.find((d) => d.id === domainId)).toMatchObject({ providerLimits: {}, warmup: null });
  });

  it('sets, keeps and removes provider limits one provider at a time', async () => {
    expect((await patched({ providerLimits: { gmail: 2000, yahoo: 500 } })).providerLimits).toEqual({
      gmail: 2000,
      yahoo: 500,
    });
    // Providers left out keep theirs; null removes one.
    expect((await patched({ providerLimits: { gmail: null, microsoft: 100 } })).providerLimits).toEqual({
      microsoft: 100,
      yahoo: 500,
    });
    expect((await get()).providerLimits).toEqual({ microsoft: 100, yahoo: 500 });
  });

  it('refuses bad limits and schedules with a 422 naming the field, changing nothing', async () => {
    const before = await get();
    const cases: [unknown, string][] = [
      [{ providerLimits: { gmail: -5 } }, 'providerLimits.gmail'],
      [{ providerLimits: { gmail: 0 } }, 'providerLimits.gmail'],
      [{ providerLimits: { gmail: 1.5 } }, 'providerLimits.gmail'],
      [{ providerLimits: { gmail: '2000' } }, 'providerLimits.gmail'],
      [{ providerLimits: { gmail: 1e12 } }, 'providerLimits.gmail'],
      [{ providerLimits: { hotmail: 100 } }, 'providerLimits'],
      [{ providerLimits: [100] }, 'providerLimits'],
      [{ warmup: { enabled: true, schedule: [0, 0, 0] } }, 'warmup.schedule.0'],
      [{ warmup: { enabled: true, schedule: [100, 50] } }, 'warmup.schedule'],
      [{ warmup: { enabled: true, schedule: Array.from({ length: 10_000 }, (_, i) => i + 1) } }, 'warmup.schedule'],
      [{ warmup: { enabled: true, schedule: Array.from({ length: 61 }, () => 10) } }, 'warmup.schedule'],
      [{ warmup: { enabled: true, schedule: [] } }, 'warmup.schedule'],
      [{ warmup: { enabled: true, schedule: ['50', '100'] } }, 'warmup.schedule.0'],
      [{ warmup: { enabled: true, schedule: '50,100' } }, 'warmup.schedule'],
      [{ warmup: { enabled: 'yes' } }, 'warmup.enabled'],
      [{ warmup: { schedule: [50] } }, 'warmup.enabled'],
      [{ warmup: { enabled: true, extra: 1 } }, 'warmup'],
      [{ warmup: true }, 'warmup'],
      [{ warmup: { enabled: true, startedOn: '2026-02-30' } }, 'warmup.startedOn'],
      [{ warmup: { enabled: true, startedOn: 'yesterday' } }, 'warmup.startedOn'],
      [{ warmup: { enabled: true, startedOn: utcDay(new Date(Date.now() + 2 * DAY_MS)) } }, 'warmup.startedOn'],
      [{ warmup: { enabled: true, startedOn: '1999-12-31' } }, 'warmup.startedOn'],
      [{ warmup: { enabled: false, startedOn: daysAgo(1) } }, 'warmup.startedOn'],
    ];
    for (const [payload, field] of cases) expectValidation(await patch(payload), field);
    // Both in one request, one of them bad: neither is applied.
    expectValidation(
      await patch({ providerLimits: { gmail: 10 }, warmup: { enabled: true, schedule: [5, 1] } }),
      'warmup.schedule',
    );
    expect(await get()).toEqual(before);
  });

  it('starts a warm-up today on the default schedule: day 1, capped at 50', async () => {
    const { warmup } = await patched({ warmup: { enabled: true } });
    expect(warmup).toEqual({
      enabled: true,
      day: 1,
      cap: 50,
      sentToday: 0,
      schedule: [...DEFAULT_WARMUP_SCHEDULE],
      startedOn: utcDay(new Date()),
    });
  });

  it("counts the day from day 1 (startedOn) and caps it by the schedule's entry, none after its last day", async () => {
    const schedule = [10, 20, 30];
    expect((await patched({ warmup: { enabled: true, schedule, startedOn: daysAgo(2) } })).warmup).toMatchObject({
      day: 3,
      cap: 30,
      schedule,
      startedOn: daysAgo(2),
    });
    expect((await patched({ warmup: { enabled: true, startedOn: daysAgo(3) } })).warmup).toMatchObject({
      enabled: true,
      day: 4,
      cap: null,
      schedule,
    });
  });

  it('keeps day 1 when enabling a warm-up that is on, and applies a new schedule from the current day', async () => {
    const { warmup } = await patched({ warmup: { enabled: true, schedule: [5, 6, 7, 8, 9] } });
    expect(warmup).toMatchObject({ enabled: true, day: 4, cap: 8, startedOn: daysAgo(3), schedule: [5, 6, 7, 8, 9] });
    expect((await patched({ warmup: { enabled: true } })).warmup).toMatchObject({ day: 4, cap: 8 });
  });

  it('turns off keeping the record, and starts again at day 1 with the kept schedule when enabled again', async () => {
    expect((await patched({ warmup: { enabled: false } })).warmup).toEqual({
      enabled: false,
      day: null,
      cap: null,
      sentToday: 0,
      schedule: [5, 6, 7, 8, 9],
      startedOn: daysAgo(3),
    });
    expect((await patched({ warmup: { enabled: true } })).warmup).toMatchObject({
      enabled: true,
      day: 1,
      cap: 5,
      schedule: [5, 6, 7, 8, 9],
      startedOn: utcDay(new Date()),
    });
  });

  it("shows what today's count holds (the engine's per-day count), not another day's", async () => {
    await t.ctx.db.execute(sql`INSERT INTO warmup_days (domain_id, day, sent) VALUES
      (${domainId}::uuid, ${utcDay(new Date())}, 4), (${domainId}::uuid, ${daysAgo(1)}, 40)`);
    expect((await get()).warmup).toMatchObject({ day: 1, cap: 5, sentToday: 4 });
    const list = (await req('GET', '/domains')).json().data.items as DomainBody[];
    expect(list.find((d) => d.id === domainId)!.warmup).toMatchObject({ sentToday: 4 });
  });

  it('leaves a warm-up that was never on alone when asked to turn it off', async () => {
    const fresh = await addDomain('never.example.test');
    expect((await patched({ warmup: { enabled: false } }, fresh.id)).warmup).toBeNull();
  });

  it('records the changes in the audit log', async () => {
    const res = await req('GET', '/audit-log?limit=100&action=domain.updated');
    expect(res.statusCode, res.body).toBe(200);
    type Change = [unknown, unknown] | undefined;
    const entries = res.json().data.items as { resourceId: string; changes: Record<string, Change> | null }[];
    const changes = entries.filter((e) => e.resourceId === domainId).map((e) => e.changes ?? {});
    expect(changes.map((c) => c.providerLimits).filter(Boolean)).toContainEqual([null, { gmail: 2000, yahoo: 500 }]);
    expect(changes.map((c) => c.providerLimits).filter(Boolean)).toContainEqual([
      { gmail: 2000, yahoo: 500 },
      { microsoft: 100, yahoo: 500 },
    ]);
    const warmups = changes.map((c) => c.warmup).filter((w): w is [unknown, unknown] => w !== undefined);
    expect(warmups).toContainEqual([
      null,
      { enabled: true, startedOn: utcDay(new Date()), schedule: [...DEFAULT_WARMUP_SCHEDULE] },
    ]);
    expect(warmups.map(([, after]) => after)).toContainEqual({
      enabled: false,
      startedOn: daysAgo(3),
      schedule: [5, 6, 7, 8, 9],
    });
  });

  it('answers 404 for a domain of another project, for the limits and the throughput', async () => {
    expectError(
      await req('PATCH', `/domains/${domainId}`, { providerLimits: { gmail: 1 } }, other.auth),
      404,
      'NOT_FOUND',
    );
    expectError(await req('GET', `/domains/${domainId}/throughput`, undefined, other.auth), 404, 'NOT_FOUND');
    expectError(await req('GET', `/domains/${domainId}/throughput/series`, undefined, other.auth), 404, 'NOT_FOUND');
    expectError(await req('GET', '/domains/not-an-id/throughput'), 404, 'NOT_FOUND');
  });

  describe('throughput', () => {
    let id: string;
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
    const count = (provider: string, at: string, sent: number, deferred: number) =>
      t.ctx.db.execute(sql`INSERT INTO send_counts (domain_id, provider, minute, sent, deferred)
        VALUES (${id}::uuid, ${provider}, ${at}::timestamptz, ${sent}, ${deferred})`);
    const throughput = async () => {
      const res = await req('GET', `/domains/${id}/throughput`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as {
        provider: string;
        allowedPerHour: number | null;
        sentLastHour: number;
        deferredLastHour: number;
        state: string;
      }[];
    };

    beforeAll(async () => {
      id = (await addDomain('busy.example.test')).id;
    });

    it('lists the five providers, unlimited and OK, before any mail', async () => {
      expect(await throughput()).toEqual(
        ['gmail', 'microsoft', 'yahoo', 'apple', 'other'].map((provider) => ({
          provider,
          allowedPerHour: null,
          sentLastHour: 0,
          deferredLastHour: 0,
          state: 'OK',
        })),
      );
    });

    it("sums the last 60 minutes' counts, applies limits and slow-downs, and says who is throttled", async () => {
      await patched({ providerLimits: { gmail: 2000, microsoft: 100, yahoo: 500 } }, id);
      await count('gmail', minutesAgo(5), 30, 2);
      await count('gmail', minutesAgo(40), 20, 1);
      await count('gmail', minutesAgo(90), 1000, 50);
      await count('microsoft', minutesAgo(1), 60, 0);
      await count('microsoft', minutesAgo(59), 40, 3);
      await count('yahoo', minutesAgo(2), 10, 0);
      // A slow-down from gmail 25 minutes ago (two recoveries: 1000 × 1.1²), and one from apple over an hour ago.
      await t.ctx.db.execute(sql`INSERT INTO send_throttles (domain_id, provider, slowed_per_hour, slowed_at) VALUES
        (${id}::uuid, 'gmail', 1000, ${minutesAgo(25)}::timestamptz),
        (${id}::uuid, 'apple', 10, ${minutesAgo(61)}::timestamptz)`);
      const rows = await throughput();
      expect(rows).toEqual([
        { provider: 'gmail', allowedPerHour: 1210, sentLastHour: 50, deferredLastHour: 3, state: 'THROTTLED' },
        { provider: 'microsoft', allowedPerHour: 100, sentLastHour: 100, deferredLastHour: 3, state: 'THROTTLED' },
        { provider: 'yahoo', allowedPerHour: 500, sentLastHour: 10, deferredLastHour: 0, state: 'OK' },
        { provider: 'apple', allowedPerHour: null, sentLastHour: 0, deferredLastHour: 0, state: 'OK' },
        { provider: 'other', allowedPerHour: null, sentLastHour: 0, deferredLastHour: 0, state: 'OK' },
      ]);
    });

    it('gives the mail per UTC hour and provider for the chart, oldest first, within the hours asked', async () => {
      await count('other', minutesAgo(0), 1, 0);
      const res = await req('GET', `/domains/${id}/throughput/series?hours=24`);
      expect(res.statusCode, res.body).toBe(200);
      const series = res.json().data as { hour: string; provider: string; sent: number; deferred: number }[];
      const hourOf = (n: number) => {
        const at = new Date(Date.now() - n * 60_000);
        at.setUTCMinutes(0, 0, 0);
        return at.toISOString();
      };
      const expected = new Map<string, { sent: number; deferred: number }>();
      const add = (n: number, provider: string, sent: number, deferred: number) => {
        const key = `${hourOf(n)} ${provider}`;
        const was = expected.get(key) ?? { sent: 0, deferred: 0 };
        expected.set(key, { sent: was.sent + sent, deferred: was.deferred + deferred });
      };
      add(5, 'gmail', 30, 2);
      add(40, 'gmail', 20, 1);
      add(90, 'gmail', 1000, 50);
      add(1, 'microsoft', 60, 0);
      add(59, 'microsoft', 40, 3);
      add(2, 'yahoo', 10, 0);
      add(0, 'other', 1, 0);
      const got = new Map(series.map((r) => [`${r.hour} ${r.provider}`, { sent: r.sent, deferred: r.deferred }]));
      expect(got).toEqual(expected);
      const order = series.map((r) => `${r.hour} ${r.provider}`);
      expect(order).toEqual([...order].sort());
      // One hour: only the current hour's mail.
      const current = (await req('GET', `/domains/${id}/throughput/series?hours=1`)).json().data as { hour: string }[];
      expect(new Set(current.map((r) => r.hour))).toEqual(new Set([hourOf(0)]));
    });

    it('refuses an hour count outside 1 to 48', async () => {
      for (const hours of ['0', '49', '-1', '2.5', 'abc'])
        expectValidation(await req('GET', `/domains/${id}/throughput/series?hours=${hours}`), 'hours');
    });
  });
});
