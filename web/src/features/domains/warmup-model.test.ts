import { describe, expect, it } from 'vitest';
import { DEFAULT_WARMUP_SCHEDULE, isDefaultSchedule, parseSchedule, rampDays } from './warmup-model.ts';

describe('the warm-up schedule as typed', () => {
  it('reads numbers separated by commas, spaces or lines', () => {
    expect(parseSchedule('10, 20\n40 80')).toEqual({ caps: [10, 20, 40, 80] });
    expect(parseSchedule(DEFAULT_WARMUP_SCHEDULE.join(', '))).toEqual({ caps: [...DEFAULT_WARMUP_SCHEDULE] });
  });

  it('says what is wrong: nothing typed, not a whole number, a day capping less than the day before', () => {
    expect(parseSchedule('  ')).toEqual({ problem: expect.stringContaining('at least one') });
    expect(parseSchedule('10, 2.5')).toEqual({ problem: expect.stringContaining('“2.5”') });
    expect(parseSchedule('10, 0')).toEqual({ problem: expect.stringContaining('“0”') });
    expect(parseSchedule('10, 20, 15')).toEqual({ problem: expect.stringContaining('Day 3 caps less than day 2') });
  });

  it('knows the default schedule', () => {
    expect(isDefaultSchedule([...DEFAULT_WARMUP_SCHEDULE])).toBe(true);
    expect(isDefaultSchedule([50, 100])).toBe(false);
  });
});

describe('rampDays', () => {
  it('gives each day its cap, and today what was sent', () => {
    const warmup = { enabled: true, day: 2, cap: 20, sentToday: 7, schedule: [10, 20, 40], startedOn: '2026-11-28' };
    expect(rampDays(warmup)).toEqual([
      { day: 1, cap: 10, sent: null },
      { day: 2, cap: 20, sent: 7 },
      { day: 3, cap: 40, sent: null },
    ]);
  });
});
