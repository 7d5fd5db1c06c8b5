import { describe, expect, it } from 'vitest';
import { niceMax } from './chart-scale.ts';

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
