// The arithmetic of provider throttles and warm-up, shared by the engine (which enforces them) and the domain's
// views (which show them). Days are UTC days.
import type { DomainWarmup } from '../../db/schema/index.ts';

/** A "slow down" halves a pair's rate for an hour; each 10 minutes without another one gives back 10 %. */
export const SLOWDOWN_HOURS = 1;
export const RECOVERY_STEP_MINUTES = 10;
export const RECOVERY_FACTOR = 1.1;

export const DEFAULT_WARMUP_SCHEDULE: readonly number[] = [
  50, 100, 200, 400, 800, 1500, 3000, 6000, 12000, 25000, 50000, 100000,
];

/**
 * What a sender domain may send to a provider per hour now: the configured limit (null: unlimited), or while a
 * "slow down" is in force (within the hour after it), the halved rate grown by 10 % per 10 quiet minutes, never
 * above the configured limit.
 */
export function allowedPerHour(opts: {
  configured: number | null;
  slowedPerHour: number | null;
  slowedAt: Date | null;
  now: Date;
}): number | null {
  const { configured, slowedPerHour, slowedAt, now } = opts;
  if (slowedPerHour === null || slowedAt === null) return configured;
  const elapsed = now.getTime() - slowedAt.getTime();
  if (elapsed >= SLOWDOWN_HOURS * 3600_000 || elapsed < 0) return configured;
  const steps = Math.floor(elapsed / (RECOVERY_STEP_MINUTES * 60_000));
  const rate = slowedPerHour * RECOVERY_FACTOR ** steps;
  return configured === null ? rate : Math.min(configured, rate);
}

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
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return d;
}
