/** Strict reading of ISO 8601 dates from requests: no year 0, no 30 February, nothing PostgreSQL refuses. */

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number) => (month === 2 && isLeap(year) ? 29 : DAYS[month - 1]!);

function offsetMinutes(zone: string | undefined): number | null {
  if (!zone || zone === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 14 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/**
 * The instant of an ISO 8601 date (`2024-05-01`, UTC midnight) or date-time (offset optional, UTC when
 * absent), or null when it is not one: every field is range-checked (30 February, hour 24 and year 0 are
 * refused, where `Date.parse` would roll them over or PostgreSQL would answer an error) and the instant
 * must fall within the years 1–9999.
 */
export function parseIsoInstant(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = ISO.exec(text);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) =>
    part === undefined ? undefined : Number(part),
  ) as number[];
  if (year! < 1 || month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offset = offsetMinutes(m[8]);
  if (offset === null) return null;
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour, minute - offset, second, m[7] ? Number(m[7].padEnd(6, '0').slice(0, 3)) : 0);
  const utcYear = date.getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999 ? date : null;
}
