// How dates and numbers read on every page.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

const withSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });

/** A time to the second, where the order of close events matters (an execution's steps). */
export function formatDateTimeSeconds(iso: string): string {
  return withSeconds.format(new Date(iso));
}

/** The whole timestamp, for a title: the local date and time in words, and the UTC time to the millisecond. */
export function formatFullTimestamp(iso: string): string {
  return `${full.format(new Date(iso))} (${iso})`;
}

export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%`;
}

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** `datetime-local` input value (local time) ↔ ISO. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// A day of the API's daily series ("2026-11-24", a UTC day) in the same style as every other date.
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dayShort = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A UTC day (`YYYY-MM-DD`) in full: "Nov 24, 2026". */
export function formatDay(date: string): string {
  return day.format(new Date(`${date}T00:00:00Z`));
}

/** A UTC day for a chart axis, without the year: "Nov 24". */
export function formatDayShort(date: string): string {
  return dayShort.format(new Date(`${date}T00:00:00Z`));
}

const hour = new Intl.DateTimeFormat(undefined, { hour: 'numeric' });
const hourLong = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The local hour an hour of an hourly series starts at, for a chart axis: "2 PM", "14". */
export function formatHour(iso: string): string {
  return hour.format(new Date(iso));
}

/** The hour of an hourly series with its day, for a tooltip: "Nov 24, 2026, 14:00". */
export function formatHourLong(iso: string): string {
  return hourLong.format(new Date(iso));
}

const compact = new Intl.NumberFormat(undefined, { notation: 'compact' });

/** A count in few characters, for a chart axis: 1.5K, 100K. */
export function formatCompact(n: number): string {
  return compact.format(n);
}
