import { describe, expect, it } from 'vitest';
import { pickWinner, testVariantAt, waitSeconds } from './campaigns.variants.ts';

const counts = (sent: number, humanOpened: number, humanClicked = 0) => ({
  recipients: sent,
  sent,
  delivered: 0,
  opened: humanOpened + 5,
  humanOpened,
  clicked: humanClicked + 5,
  humanClicked,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
  failed: 0,
});

describe('A/B test share', () => {
  it('takes exactly percent% of the walk, spread along it, and splits it evenly across the variants', () => {
    for (const [size, percent, variants] of [
      [1000, 20, 2],
      [997, 5, 3],
      [20_000, 50, 5],
      [7, 50, 2],
    ] as const) {
      const picked = Array.from({ length: size }, (_, i) => testVariantAt(i, percent, variants)).filter(
        (v) => v !== null,
      );
      expect(picked.length).toBe(Math.floor((size * percent) / 100));
      const per = Array.from({ length: variants }, (_, v) => picked.filter((p) => p === v).length);
      expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(1);
    }
  });
  it('decides each position alone, so a repeated batch decides the same', () => {
    expect(Array.from({ length: 10 }, (_, i) => testVariantAt(i, 50, 2))).toEqual([
      null,
      0,
      null,
      1,
      null,
      0,
      null,
      1,
      null,
      0,
    ]);
  });
});

describe('the winner', () => {
  it('has the best human rate of the metric; machine figures do not count; ties go to the first', () => {
    expect(
      pickWinner(
        new Map([
          [0, counts(100, 10)],
          [1, counts(100, 20)],
        ]),
        2,
        'opens',
      ),
    ).toBe(1);
    expect(
      pickWinner(
        new Map([
          [0, counts(100, 30, 1)],
          [1, counts(100, 10, 5)],
        ]),
        2,
        'clicks',
      ),
    ).toBe(1);
    expect(
      pickWinner(
        new Map([
          [0, counts(100, 10)],
          [1, counts(100, 10)],
        ]),
        2,
        'opens',
      ),
    ).toBe(0);
    expect(pickWinner(new Map(), 3, 'opens')).toBe(0);
  });
  it('reads waits with seconds, up to 30 days', () => {
    expect(waitSeconds('30s')).toBe(30);
    expect(waitSeconds('4h')).toBe(14_400);
    expect(waitSeconds('31d')).toBeNull();
    expect(waitSeconds('0s')).toBeNull();
    expect(waitSeconds('1y')).toBeNull();
  });
});
