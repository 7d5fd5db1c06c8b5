import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { durationSeconds, toInstant } from './filter.types.ts';
import { checkFilter } from './filter.validate.ts';

const errorsOf = (value: unknown) => {
  try {
    checkFilter(value, 'filter');
  } catch (error) {
    if (error instanceof AppError) return error.errors ?? [];
    throw error;
  }
  return [];
};

describe('checkFilter', () => {
  it('accepts every form of the language and lists the segments it names', () => {
    const segment = '01890000-0000-7000-8000-00000000000A';
    const { refs } = checkFilter(
      {
        all: [
          { field: 'data.plan.tier', operator: 'in', value: ['pro', 2, true] },
          {
            any: [
              { event: 'login', operator: 'performed', within: '12h', count: { gte: 2 } },
              { not: { activity: 'opened', operator: 'notPerformed', within: '4w' } },
            ],
          },
          { segment, operator: 'notMember' },
          { field: 'createdAt', operator: 'greaterThan', value: '2024-05-01T10:00:00+02:00' },
          { field: 'data.x', operator: 'notExists' },
        ],
      },
      'filter',
    );
    expect(refs).toEqual([{ id: segment.toLowerCase(), path: 'filter.all.2.segment' }]);
  });

  it('reports every problem with its path, not only the first', () => {
    expect(
      errorsOf({
        all: [
          { field: 'x', operator: 'equals', value: 1 },
          { event: 'e', operator: 'did' },
        ],
      }).map((e) => e.field),
    ).toEqual(['filter.all.0.field', 'filter.all.1.operator']);
  });

  it('bounds size and depth', () => {
    let deep: unknown = { field: 'email', operator: 'equals', value: 'a' };
    for (let i = 0; i < 14; i++) deep = { not: deep };
    expect(errorsOf(deep)[0]?.code).toBe('too_complex');
    const wide = {
      any: Array.from({ length: 100 }, () => ({ all: [{ field: 'email', operator: 'equals', value: 'a' }] })),
    };
    expect(errorsOf(wide)[0]?.code).toBe('too_complex');
    expect(errorsOf({ field: `data.${Array(9).fill('k').join('.')}`, operator: 'exists' })[0]?.field).toBe(
      'filter.field',
    );
    expect(errorsOf({ field: 'email', operator: 'equals', value: 'x'.repeat(1001) })[0]?.field).toBe('filter.value');
  });
});

describe('durations and dates', () => {
  it('reads m, h, d, w durations up to 10 years', () => {
    expect(durationSeconds('30m')).toBe(1800);
    expect(durationSeconds('12h')).toBe(43_200);
    expect(durationSeconds('7d')).toBe(604_800);
    expect(durationSeconds('4w')).toBe(2_419_200);
    for (const bad of ['0d', '7 d', '1y', '-1d', '1.5h', '99999w', '']) expect(durationSeconds(bad), bad).toBeNull();
  });

  it('reads ISO dates as UTC instants, and nothing else', () => {
    expect(toInstant('2024-05-01')).toBe('2024-05-01T00:00:00.000Z');
    expect(toInstant('2024-05-01T10:00')).toBe('2024-05-01T10:00:00.000Z');
    expect(toInstant('2024-05-01T10:00:00+02:00')).toBe('2024-05-01T08:00:00.000Z');
    for (const bad of ['yesterday', '2024-13-01', '1714550400', 5, null])
      expect(toInstant(bad), String(bad)).toBeNull();
  });
});
