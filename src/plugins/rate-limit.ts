import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';

/** RATE_LIMIT_PER_MINUTE per project, shared across API processes; RateLimit-* headers on every project response. */
export function registerRateLimit(app: FastifyInstance, ctx: AppContext, limiter: RateLimiter): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.auth) return;
    const take = await limiter.take(`api:${request.auth.projectId}`, ctx.config.rateLimitPerMinute, 60_000);
    const reset = String(Math.max(1, Math.ceil(take.resetMs / 1000)));
    reply.header('RateLimit-Limit', String(take.limit));
    reply.header('RateLimit-Remaining', String(take.remaining));
    reply.header('RateLimit-Reset', reset);
    if (!take.allowed) {
      throw new AppError('RATE_LIMIT_EXCEEDED', `Rate limit of ${take.limit} requests per minute exceeded`, {
        headers: { 'Retry-After': reset },
        suggestion: `Retry after ${reset} seconds.`,
      });
    }
  });
}
