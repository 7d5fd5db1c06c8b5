// The arithmetic of provider throttles and warm-up: a "slow down" halves a pair's rate for an hour, each 10 quiet
// minutes give back 10 %, never above the configured limit; a warm-up's day 1 is the day it was enabled, each day has
// the schedule's cap, and after its last day there is none.
import { describe, expect, it } from 'vitest';
import { allowedPerHour, DEFAULT_WARMUP_SCHEDULE, nextUtcDay, utcDay, warmupCap, warmupDay } from './sending.limits.ts';

const at = (iso: string) => new Date(iso);
const slowedAt = at('2026-03-10T12:00:00.000Z');
const minutes = (n: number) => new Date(slowedAt.getTime() + n * 60_000);

describe('allowedPerHour', () => {
  it('is the configured limit without a slow-down (null: unlimited)', () => {
    expect(allowedPerHour({ configured: 2000, slowedPerHour: null, slowedAt: null, now: slowedAt })).toBe(2000);
    expect(allowedPerHour({ configured: null, slowedPerHour: null, slowedAt: null, now: slowedAt })).toBeNull();
  });

  it('is the halved rate for the first 10 minutes of a slow-down', () => {
    for (const n of [0, 1, 9.99])
      expect(allowedPerHour({ configured: 2000, slowedPerHour: 1000, slowedAt, now: minutes(n) })).toBe(1000);
  });

  it('gives back 10 % every 10 quiet minutes, compounding', () => {
    const rate = (n: number) => allowedPerHour({ configured: 2000, slowedPerHour: 1000, slowedAt, now: minutes(n) });
    expect(rate(10)).toBeCloseTo(1100, 9);
    expect(rate(19)).toBeCloseTo(1100, 9);
    expect(rate(20)).toBeCloseTo(1210, 9);
    expect(rate(30)).toBeCloseTo(1331, 9);
    expect(rate(50)).toBeCloseTo(1000 * 1.1 ** 5, 9);
    expect(rate(59.9)).toBeCloseTo(1000 * 1.1 ** 5, 9);
  });

  it('ends an hour after the slow-down: the configured limit again', () => {
    expect(allowedPerHour({ configured: 2000, slowedPerHour: 1000, slowedAt, now: minutes(60) })).toBe(2000);
    expect(allowedPerHour({ configured: null, slowedPerHour: 1000, slowedAt, now: minutes(61) })).toBeNull();
  });

  it('never goes above the configured limit while recovering', () => {
    for (let n = 0; n < 60; n += 5) {
      const rate = allowedPerHour({ configured: 1200, slowedPerHour: 1000, slowedAt, now: minutes(n) })!;
      expect(rate).toBeLessThanOrEqual(1200);
    }
    expect(allowedPerHour({ configured: 1200, slowedPerHour: 1000, slowedAt, now: minutes(50) })).toBe(1200);
  });

  it('an unlimited pair keeps its slowed rate growing for the hour, unbounded by a limit', () => {
    expect(allowedPerHour({ configured: null, slowedPerHour: 300, slowedAt, now: minutes(0) })).toBe(300);
    expect(allowedPerHour({ configured: null, slowedPerHour: 300, slowedAt, now: minutes(40) })).toBeCloseTo(
      300 * 1.1 ** 4,
      9,
    );
  });

  it('ignores a slow-down stamped in the future (a skewed clock)', () => {
    expect(allowedPerHour({ configured: 500, slowedPerHour: 100, slowedAt, now: minutes(-1) })).toBe(500);
  });
});

describe('warm-up', () => {
  const warmup = (startedOn: string, schedule = [...DEFAULT_WARMUP_SCHEDULE]) => ({
    enabled: true,
    startedOn,
    schedule,
  });

  it('names UTC days, and the start of the next one', () => {
    expect(utcDay(at('2026-03-10T23:59:59.999Z'))).toBe('2026-03-10');
    expect(utcDay(at('2026-03-11T00:00:00.000Z'))).toBe('2026-03-11');
    expect(nextUtcDay(at('2026-03-10T08:30:00.000Z')).toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(nextUtcDay(at('2026-12-31T23:59:00.000Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('day 1 is the whole day it was enabled; day 2 starts at the next UTC midnight', () => {
    const w = warmup('2026-03-10');
    expect(warmupDay(w, at('2026-03-10T00:00:00.000Z'))).toBe(1);
    expect(warmupDay(w, at('2026-03-10T23:59:59.999Z'))).toBe(1);
    expect(warmupDay(w, at('2026-03-11T00:00:00.000Z'))).toBe(2);
    expect(warmupDay(w, at('2026-04-09T12:00:00.000Z'))).toBe(31);
  });

  it("caps each day by the schedule's entry, the default one 50, 100, 200 … 100,000", () => {
    expect(DEFAULT_WARMUP_SCHEDULE).toEqual([50, 100, 200, 400, 800, 1500, 3000, 6000, 12000, 25000, 50000, 100000]);
    const w = warmup('2026-03-10');
    expect(warmupCap(w, at('2026-03-10T10:00:00.000Z'))).toBe(50);
    expect(warmupCap(w, at('2026-03-11T10:00:00.000Z'))).toBe(100);
    expect(warmupCap(w, at('2026-03-21T10:00:00.000Z'))).toBe(100000);
  });

  it("has no cap after the schedule's last day, when off, or without a warm-up", () => {
    expect(warmupCap(warmup('2026-03-10'), at('2026-03-22T00:00:00.000Z'))).toBeNull();
    expect(warmupCap(warmup('2026-03-10', [10, 20]), at('2026-03-11T12:00:00.000Z'))).toBe(20);
    expect(warmupCap(warmup('2026-03-10', [10, 20]), at('2026-03-12T00:00:00.000Z'))).toBeNull();
    expect(warmupCap({ ...warmup('2026-03-10'), enabled: false }, at('2026-03-10T12:00:00.000Z'))).toBeNull();
    expect(warmupCap(null, at('2026-03-10T12:00:00.000Z'))).toBeNull();
  });

  it('counts a clock before day 1 as day 1', () => {
    expect(warmupDay(warmup('2026-03-10'), at('2026-03-09T12:00:00.000Z'))).toBe(1);
  });
});
