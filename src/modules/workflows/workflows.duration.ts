// Durations of DELAY and WAIT_FOR_EVENT: the filter language's "30m", "12h", "7d", "4w", and also seconds
// ("5s"), so short waits (and tests) need no minute.
const DURATION = /^([1-9][0-9]{0,6})([smhdw])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 } as const;
/** The longest DELAY or WAIT_FOR_EVENT timeout: one year. */
export const MAX_WAIT_SECONDS = 366 * 86_400;

/** Seconds of a duration such as "5s", "30m", "12h", "7d", "4w"; null when it is not one or longer than a year. */
export function waitSeconds(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = DURATION.exec(text);
  if (!match) return null;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  return seconds <= MAX_WAIT_SECONDS ? seconds : null;
}
