import { describe, expect, it } from 'vitest';
import { hourlySeries } from './providers.ts';

describe('hourlySeries', () => {
  const now = new Date('2026-11-29T10:25:00Z');

  it('gives every hour of the window, the current one last, with 0 where the API left an hour out', () => {
    const { labels, series } = hourlySeries(
      [
        { hour: '2026-11-29T08:00:00.000Z', provider: 'gmail', sent: 5, deferred: 0 },
        { hour: '2026-11-29T10:00:00.000Z', provider: 'gmail', sent: 2, deferred: 1 },
        { hour: '2026-11-29T10:00:00.000Z', provider: 'other', sent: 3, deferred: 0 },
        { hour: '2026-11-28T09:00:00.000Z', provider: 'yahoo', sent: 9, deferred: 0 },
      ],
      now,
      4,
    );
    expect(labels).toEqual([
      '2026-11-29T07:00:00.000Z',
      '2026-11-29T08:00:00.000Z',
      '2026-11-29T09:00:00.000Z',
      '2026-11-29T10:00:00.000Z',
    ]);
    expect(series.map((s) => [s.name, s.values])).toEqual([
      ['Gmail', [0, 5, 0, 2]],
      ['Other', [0, 0, 0, 3]],
      ['Deferred', [0, 0, 0, 1]],
    ]);
  });

  it('has no series without mail, and no deferred series without deferrals', () => {
    expect(hourlySeries([], now, 2).series).toEqual([]);
  });
});
