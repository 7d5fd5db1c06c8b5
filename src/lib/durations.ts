// Lengths of time in milliseconds, and the one parser of a duration written as text ("30m", "12h", "7d", "4w").

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

const DURATION = /^([1-9][0-9]{0,5})([mhdw])$/;
const UNIT_SECONDS = { m: 60, h: 3600, d: 86_400, w: 604_800 } as const;
const MAX_DURATION_SECONDS = 10 * 366 * 86_400;

/** Seconds of a duration such as "30m", "12h", "7d", "4w"; null when it is not one (or longer than 10 years). */
export function durationSeconds(text: string): number | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  return seconds <= MAX_DURATION_SECONDS ? seconds : null;
}

/** The time `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}
