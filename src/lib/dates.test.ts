import { describe, expect, it } from 'vitest';
import { parseIsoInstant } from './dates.ts';

const iso = (text: string) => parseIsoInstant(text)?.toISOString() ?? null;

describe('parseIsoInstant', () => {
  it('reads dates as UTC midnight and date-times with or without an offset', () => {
    expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(iso('2024-05-01T10:20')).toBe('2024-05-01T10:20:00.000Z');
    expect(iso('2024-05-01 10:20:30.5')).toBe('2024-05-01T10:20:30.500Z');
    expect(iso('2024-05-01T10:20:30+02:00')).toBe('2024-05-01T08:20:30.000Z');
    expect(iso('2024-05-01T10:20:30-0530')).toBe('2024-05-01T15:50:30.000Z');
    expect(iso('0001-01-01')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59.000Z');
  });

  it('refuses what Date.parse would roll over and what PostgreSQL refuses', () => {
    for (const bad of [
      '2024-02-30',
      '2023-02-29',
      '1900-02-29',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '0000-01-01',
      '2024-01-01T24:00',
      '2024-01-01T10:60',
      '2024-01-01T10:00:60',
      '2024-01-01T10:00+15:00',
      '0001-01-01T00:00+01:00',
      '9999-12-31T23:00-02:00',
      '2024-1-1',
      'yesterday',
      '',
    ]) {
      expect(parseIsoInstant(bad), bad).toBeNull();
    }
    expect(parseIsoInstant(20240101)).toBeNull();
  });
});
