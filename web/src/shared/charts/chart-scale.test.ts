import { describe, expect, it } from 'vitest';
import { logShare, logTicks, niceMax } from './chart-scale.ts';

describe('niceMax', () => {
  it('gives four equal round steps that hold the value', () => {
    expect([0, 1, 4].map(niceMax)).toEqual([4, 4, 4]);
    expect(niceMax(5)).toBe(8);
    expect(niceMax(22)).toBe(40);
    expect(niceMax(40)).toBe(40);
    expect(niceMax(41)).toBe(80);
    expect(niceMax(999)).toBe(2000);
    for (const v of [7, 13, 150, 3333]) {
      const max = niceMax(v);
      expect(max).toBeGreaterThanOrEqual(v);
      expect(Number.isInteger(max / 4)).toBe(true);
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
