import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endOfLocalDay, localDay } from './key-expiry.ts';

describe('key expiry days', () => {
  // A zone behind UTC, where midnight UTC of today has always passed.
  beforeAll(() => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it("ends a chosen day at its last millisecond in the browser's zone, and reads the day back", () => {
    expect(endOfLocalDay('2030-01-31')).toBe('2030-02-01T07:59:59.999Z');
    expect(endOfLocalDay('2030-07-31')).toBe('2030-08-01T06:59:59.999Z');
    expect(localDay(new Date('2030-02-01T07:59:59.999Z'))).toBe('2030-01-31');
    expect(localDay(new Date('2030-02-01T08:00:00.000Z'))).toBe('2030-02-01');
  });
});
