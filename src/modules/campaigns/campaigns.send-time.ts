// Send-time optimisation (`sendAt: {optimize: {within}, holdoutPercent}`): each recipient's email is due at the hour
// of the week they most often opened or clicked as a person (the contact's histogram of human activity), the first
// such hour within the window from the send. The due time is written into the email as it is queued, as for a send at
// each recipient's local time, so the delivery queue releases each at its turn. A holdout share, drawn at random per
// campaign but the same on every run for a contact, goes at once: comparing the two groups' human rates tells whether
// the optimisation helped.
import { createHash } from 'node:crypto';
import { hourOfWeek, WEEK_HOURS } from '../contacts/index.ts';
import { DAY_MS, durationSeconds, HOUR_MS } from '../../lib/durations.ts';
import { validationError } from '../../lib/errors.ts';
import { isTimeZone, zonedInstant, zoneOffsetMs } from '../../lib/time-zone.ts';

export interface OptimizeSendAt {
  optimize: { within: string };
  holdoutPercent?: number | undefined;
}

/** The shortest and longest window: an hour, and a week (which holds every hour of the week already). */
export const OPTIMIZE_MIN_SECONDS = 3600;
export const OPTIMIZE_MAX_SECONDS = 7 * 86_400;
export const DEFAULT_HOLDOUT_PERCENT = 10;
export const MAX_HOLDOUT_PERCENT = 50;
/** Where a recipient has no history: this wall-clock time in their zone. */
export const DEFAULT_LOCAL_TIME = '10:00';

/** The window of an optimised send in seconds, or a 422 for one outside 1 hour … 7 days. */
export function optimizeWindowSeconds(sendAt: OptimizeSendAt): number {
  const seconds = durationSeconds(sendAt.optimize.within);
  if (seconds === null || seconds < OPTIMIZE_MIN_SECONDS || seconds > OPTIMIZE_MAX_SECONDS)
    throw validationError(
      'sendAt.optimize.within',
      'must be a duration from "1h" to "7d" (such as "24h")',
      seconds === null ? 'invalid_duration' : 'out_of_range',
    );
  return seconds;
}

/** A window as the campaign shows it: whole days from 2, else whole hours, else minutes ("2d", "24h", "90m"). */
export function formatWindow(seconds: number): string {
  if (seconds % 86_400 === 0 && seconds >= 2 * 86_400) return `${seconds / 86_400}d`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  return `${Math.round(seconds / 60)}m`;
}

/** Whether the contact is in the campaign's holdout: a draw from a hash of both ids (stable across runs). */
export function isHoldout(campaignId: string, contactId: string, percent: number): boolean {
  if (percent <= 0) return false;
  const digest = createHash('sha256').update(`${campaignId}:${contactId}`).digest();
  return digest.readUInt32BE(0) % 100 < percent;
}

/** The candidate send times: now (its hour under way), then each following whole hour before the window ends. */
function slotsOf(start: Date, withinSeconds: number): Date[] {
  const end = start.getTime() + withinSeconds * 1000;
  const slots = [start];
  const firstHour = Math.floor(start.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  // After a week the hours repeat: the earliest of each is among the first 168.
  for (let t = firstHour; t < end && slots.length < WEEK_HOURS; t += HOUR_MS) slots.push(new Date(t));
  return slots;
}

/** The earliest slot with the highest positive weight; null when every slot weighs nothing. */
function bestSlot(slots: Date[], weight: (slot: Date) => number): Date | null {
  let best: Date | null = null;
  let top = 0;
  for (const slot of slots) {
    const w = weight(slot);
    if (w > top) [best, top] = [slot, w];
  }
  return best;
}

/** The next 10:00 on the wall clock of `zone` from `start` (its hour under way counts as now), if within the window. */
function defaultTime(start: Date, withinSeconds: number, zone: string): Date {
  const local = new Date(start.getTime() + zoneOffsetMs(zone, start.getTime()));
  const day = local.toISOString().slice(0, 10);
  let due = zonedInstant(day, DEFAULT_LOCAL_TIME, zone);
  if (due.getTime() + HOUR_MS <= start.getTime()) {
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    due = zonedInstant(next, DEFAULT_LOCAL_TIME, zone);
  }
  if (due < start) return start;
  return due.getTime() < start.getTime() + withinSeconds * 1000 ? due : start;
}

/**
 * When one recipient's email is due: the first hour in the window whose hour of the week has the most human opens
 * and clicks; when none of those hours has any, the first hour of the day that has the most (on any day); with no
 * history at all, 10:00 in the recipient's zone (`data.timezone`, else the project's), or at once when no 10:00
 * falls in the window.
 */
export function optimizedDueAt(opts: {
  start: Date;
  withinSeconds: number;
  hours: number[] | null;
  zone: string;
}): Date {
  const { start, withinSeconds, hours } = opts;
  if (hours && hours.some((n) => n > 0)) {
    const slots = slotsOf(start, withinSeconds);
    const byWeek = bestSlot(slots, (slot) => hours[hourOfWeek(slot)] ?? 0);
    if (byWeek) return byWeek;
    const byDay = Array.from({ length: 24 }, (_, h) =>
      Array.from({ length: 7 }, (_, d) => hours[d * 24 + h] ?? 0).reduce((a, b) => a + b, 0),
    );
    const byHour = bestSlot(slots, (slot) => byDay[slot.getUTCHours()]!);
    if (byHour) return byHour;
  }
  return defaultTime(start, withinSeconds, opts.zone);
}

/** The zone a recipient's default time is read in: its `data.timezone` when that names one, else the project's. */
export function recipientZone(data: Record<string, unknown> | null, projectZone: string): string {
  const named = data?.timezone;
  return typeof named === 'string' && isTimeZone(named) ? named : projectZone;
}
