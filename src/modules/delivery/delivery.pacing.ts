import type { AppContext } from '../../context.ts';
import { RateLimiter } from '../../lib/rate-limiter.ts';

const limiters = new WeakMap<AppContext, RateLimiter>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for one of the project's SEND_RATE_PER_SECOND tokens. The window is shared through the
 * database, so the rate holds across every worker process; 0 means unlimited.
 */
export async function paceSend(ctx: AppContext, projectId: string): Promise<void> {
  const limit = ctx.config.sendRatePerSecond;
  if (limit <= 0) return;
  let limiter = limiters.get(ctx);
  if (!limiter) {
    limiter = new RateLimiter(ctx.db);
    limiters.set(ctx, limiter);
  }
  for (;;) {
    const take = await limiter.take(`send:${projectId}`, limit, 1000);
    if (take.allowed) return;
    await sleep(take.resetMs + Math.floor(Math.random() * 20));
  }
}
