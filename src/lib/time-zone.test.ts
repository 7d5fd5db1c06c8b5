import { describe, expect, it } from 'vitest';
import { isCalendarDate, zonedInstant } from './time-zone.ts';

describe('zonedInstant', () => {
  it('reads the wall clock with the offset in force that day', () => {
    expect(zonedInstant('2026-03-28', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(zonedInstant('2026-03-29', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(zonedInstant('2026-03-29', '09:00', 'Pacific/Auckland').toISOString()).toBe('2026-03-28T20:00:00.000Z');
    expect(zonedInstant('2026-04-06', '09:00', 'Pacific/Auckland').toISOString()).toBe('2026-04-05T21:00:00.000Z');
    expect(zonedInstant('2026-03-29', '09:00', 'Etc/GMT-14').toISOString()).toBe('2026-03-28T19:00:00.000Z');
  });

  it('moves a skipped time forward by the gap and takes the first of a repeated one', () => {
    expect(zonedInstant('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedInstant('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('isCalendarDate', () => {
  it('takes real dates of the years 1–9999 only', () => {
    expect(['2024-02-29', '0001-01-01', '9999-12-31'].map(isCalendarDate)).toEqual([true, true, true]);
    expect(['2025-02-29', '2026-13-01', '0000-01-01', '2026-1-01', '2026-01-01T00:00'].map(isCalendarDate)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
