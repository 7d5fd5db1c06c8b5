import { DAY_MS } from './durations.ts';

/** Whether `name` is an IANA time zone this Node knows ("Europe/Paris", "UTC"); false for anything else. */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The widest offsets any time zone has from UTC: −12:00 (Etc/GMT+12) and +14:00 (Pacific/Kiritimati). */
export const EARLIEST_ZONE = 'Etc/GMT-14';
export const LATEST_ZONE = 'Etc/GMT+12';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Milliseconds since the epoch of a wall-clock time read as if it were UTC (years 1–99 kept as such). */
function wallClockMs(year: number, month: number, day: number, hour: number, minute: number, second = 0): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  return date.getTime();
}

/** The zone's offset from UTC at an instant, in milliseconds (Europe/Berlin in July: +7,200,000). */
export function zoneOffsetMs(zone: string, instantMs: number): number {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(new Date(instantMs))
      .map((p) => [p.type, p.value]),
  );
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const local = wallClockMs(
    year,
    Number(parts.month),
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return local - Math.floor(instantMs / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `zone` shows `time` ("09:00") on `date` ("2026-03-29"). A time the
 * clocks skip (a spring-forward gap) is read with the offset before the change, so it lands as much later as
 * the gap is long (02:30 → 03:30); a time they show twice (fall back) is its first occurrence.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const local = wallClockMs(year, month, day, hour, minute);
  const before = zoneOffsetMs(zone, local - DAY_MS);
  const after = zoneOffsetMs(zone, local + DAY_MS);
  const fits = [before, after]
    .map((offset) => local - offset)
    .filter((instant) => zoneOffsetMs(zone, instant) === local - instant);
  return new Date(fits.length > 0 ? Math.min(...fits) : local - before);
}

/** Whether `date` is a real calendar date written YYYY-MM-DD, in the years 1–9999 (not 2026-02-30). */
export function isCalendarDate(date: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const check = new Date(wallClockMs(year, month, day, 0, 0));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
}
