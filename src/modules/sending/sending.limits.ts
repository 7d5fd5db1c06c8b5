// The arithmetic of provider throttles and warm-up, shared by the engine (which enforces them) and the domain's
// views (which show them). Days are UTC days. The warm-up's arithmetic lives in the domains module (every domain
// shows it, and that module cannot import this one without an import circle); the engine finds it here too.
export { DEFAULT_WARMUP_SCHEDULE, nextUtcDay, utcDay, warmupCap, warmupDay } from '../domains/index.ts';

/** A "slow down" halves a pair's rate for an hour; each 10 minutes without another one gives back 10 %. */
export const SLOWDOWN_HOURS = 1;
export const RECOVERY_STEP_MINUTES = 10;
export const RECOVERY_FACTOR = 1.1;

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
