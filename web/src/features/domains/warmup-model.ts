// A warm-up's schedule as the domain page types and shows it.
import type { DomainWarmup } from '../../shared/api/types.ts';
import type { RampDay } from '../../shared/charts/ramp-chart.tsx';

/** The schedule a warm-up takes when none is given: each day's cap, day 1 first, then no cap. */
export const DEFAULT_WARMUP_SCHEDULE: readonly number[] = [
  50, 100, 200, 400, 800, 1500, 3000, 6000, 12000, 25000, 50000, 100000,
];

export const isDefaultSchedule = (schedule: readonly number[]): boolean =>
  schedule.length === DEFAULT_WARMUP_SCHEDULE.length && schedule.every((cap, i) => cap === DEFAULT_WARMUP_SCHEDULE[i]);

/**
 * A schedule typed as numbers separated by commas, spaces or lines ("1,500" reads as two numbers: type 1500): the caps,
 * or what is wrong with it.
 */
export function parseSchedule(text: string): { caps: number[] } | { problem: string } {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return { problem: 'Type at least one day’s cap.' };
  const caps = parts.map(Number);
  const bad = parts.find((part, i) => !Number.isInteger(caps[i]) || caps[i]! < 1);
  if (bad !== undefined) return { problem: `“${bad}” is not a whole number of 1 or more.` };
  const drop = caps.findIndex((cap, i) => i > 0 && cap < caps[i - 1]!);
  if (drop > 0) return { problem: `Day ${drop + 1} caps less than day ${drop}: each day caps as much or more.` };
  return { caps };
}

/** The ramp's columns: each day of the schedule with its cap, and what was sent today (other days are not known). */
export function rampDays(warmup: DomainWarmup): RampDay[] {
  return warmup.schedule.map((cap, i) => ({
    day: i + 1,
    cap,
    sent: warmup.enabled && warmup.day === i + 1 ? warmup.sentToday : null,
  }));
}
