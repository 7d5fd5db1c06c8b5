import { describe, expect, it } from 'vitest';
import { logShare, logTicks, niceTicks } from './chart-scale.ts';

describe('niceTicks', () => {
  it('steps from 0 by a round step to the first tick at or above the value, close to it', () => {
    expect([0, 1, 4].map(niceTicks)).toEqual([
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
    ]);
    expect(niceTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(niceTicks(245)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(niceTicks(101)).toEqual([0, 20, 40, 60, 80, 100, 120]);
    expect(niceTicks(999)).toEqual([0, 200, 400, 600, 800, 1000]);
    for (const v of [7, 13, 22, 150, 245, 3333, 87_654]) {
      const ticks = niceTicks(v);
      const top = ticks[ticks.length - 1]!;
      const step = ticks[1]!;
      expect(top).toBeGreaterThanOrEqual(v);
      expect(top - step).toBeLessThan(v);
      expect(ticks.length).toBeLessThanOrEqual(7);
      expect(ticks.every((t, i) => t === i * step)).toBe(true);
      expect(String(step)).toMatch(/^[125]0*$/);
    }
  });
});

describe('logTicks and logShare', () => {
  it('ticks 0 and the powers of ten up to the first that holds the value', () => {
    expect(logTicks(0)).toEqual([0, 10]);
    expect(logTicks(10)).toEqual([0, 10]);
    expect(logTicks(50)).toEqual([0, 10, 100]);
    expect(logTicks(100_000)).toEqual([0, 10, 100, 1000, 10_000, 100_000]);
  });

  it('places 0 at the bottom, the top at the top, and each power of ten a step apart', () => {
    expect(logShare(0, 1000)).toBe(0);
    expect(logShare(-5, 1000)).toBe(0);
    expect(logShare(1000, 1000)).toBe(1);
    const steps = [100, 1000, 10_000].map((v) => logShare(v, 10_000));
    expect(steps[1]! - steps[0]!).toBeCloseTo(steps[2]! - steps[1]!, 2);
  });
});
