// A sender domain's warm-up: a cap on its mail per UTC day that grows by a schedule, day 1 being the day it was
// enabled; after the schedule's last day there is no cap. The arithmetic is shared by the sending engine (which holds
// marketing over the cap until the next day) and the domain's view (which shows the day, the cap and what went).
import type { DomainWarmup } from '../../db/schema/domains.ts';
import { validationError } from '../../lib/errors.ts';

export const DEFAULT_WARMUP_SCHEDULE: readonly number[] = [
  50, 100, 200, 400, 800, 1500, 3000, 6000, 12000, 25000, 50000, 100000,
];

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Day 1 is the day the warm-up was enabled. */
export function warmupDay(warmup: DomainWarmup, now: Date): number {
  const start = Date.parse(`${warmup.startedOn}T00:00:00Z`);
  return Math.max(1, Math.floor((now.getTime() - start) / 86_400_000) + 1);
}

/** Today's cap of a warming domain; null when it has no cap (not warming up, or past the schedule's last day). */
export function warmupCap(warmup: DomainWarmup | null, now: Date): number | null {
  if (!warmup?.enabled) return null;
  const day = warmupDay(warmup, now);
  return warmup.schedule[day - 1] ?? null;
}

/** When the next UTC day starts (when marketing held by the warm-up goes again). */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** What PATCH /domains/{id} may say about the warm-up. */
export interface WarmupChange {
  enabled: boolean;
  schedule?: number[] | undefined;
  /** A warm-up begun before (elsewhere, or earlier here): its day 1, today or earlier. */
  startedOn?: string | undefined;
}

const EARLIEST_START = '2000-01-01';

function checkStartedOn(startedOn: string, now: Date): void {
  const parsed = new Date(`${startedOn}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || utcDay(parsed) !== startedOn) {
    throw validationError('warmup.startedOn', 'Not a calendar day (YYYY-MM-DD)', 'invalid_date');
  }
  if (startedOn > utcDay(now) || startedOn < EARLIEST_START) {
    throw validationError(
      'warmup.startedOn',
      `Day 1 must be between ${EARLIEST_START} and today (${utcDay(now)}, UTC)`,
      'out_of_range',
    );
  }
}

/**
 * The warm-up after a change. Enabling one that is off (or was never on) starts it today (day 1), or on `startedOn`;
 * one already on keeps its day 1 unless `startedOn` is given, and a new schedule applies from the current day. The
 * schedule stays what it was unless one is given (the default one the first time). Disabling keeps the record, off;
 * disabling a warm-up that was never on changes nothing.
 */
export function changedWarmup(current: DomainWarmup | null, change: WarmupChange, now: Date): DomainWarmup | null {
  if (change.startedOn !== undefined) {
    if (!change.enabled)
      throw validationError('warmup.startedOn', 'Only a warm-up being enabled has a day 1', 'not_enabled');
    checkStartedOn(change.startedOn, now);
  }
  const schedule = change.schedule ?? current?.schedule ?? [...DEFAULT_WARMUP_SCHEDULE];
  if (!change.enabled) {
    if (!current && change.schedule === undefined) return null;
    return { enabled: false, startedOn: current?.startedOn ?? utcDay(now), schedule };
  }
  const startedOn = change.startedOn ?? (current?.enabled ? current.startedOn : utcDay(now));
  return { enabled: true, startedOn, schedule };
}

/** The warm-up as a domain shows it: today's day and cap (null while off), and the mail counted today. */
export function warmupView(warmup: DomainWarmup | null, sentToday: number, now: Date) {
  if (!warmup) return null;
  return {
    enabled: warmup.enabled,
    day: warmup.enabled ? warmupDay(warmup, now) : null,
    cap: warmupCap(warmup, now),
    sentToday,
    schedule: warmup.schedule,
    startedOn: warmup.startedOn,
  };
}
