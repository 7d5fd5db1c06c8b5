import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.types.ts';
import { AppError } from '../lib/errors.ts';
import type { RateLimiter, Take } from '../lib/rate-limiter.ts';
import { MINUTE_MS as MINUTE } from '../lib/durations.ts';

/** Submissions of signup forms one client address may make a minute (across every form). */
export const FORM_SUBMISSIONS_PER_MINUTE = 10;

interface Bucket {
  key: string;
  limit: number;
}

/**
 * The buckets a request spends from. Secret keys: the project's (RATE_LIMIT_PER_MINUTE). Public keys
 * ship in web pages, so anyone can spend them: they get buckets of their own, per key and per client
 * address within the project, and never touch the project's bucket (server-side sk_ calls are never
 * starved). The links inside mail (no key at all): one bucket per client address; form submissions another.
 */
function bucketsOf(request: FastifyRequest, ctx: AppContext): Bucket[] {
  if (request.routeOptions.config.rateLimit === 'forms') {
    return [{ key: `form:${request.ip}`, limit: FORM_SUBMISSIONS_PER_MINUTE }];
  }
  if (request.routeOptions.config.rateLimit === 'links') {
    return [{ key: `link:${request.ip}`, limit: ctx.config.linkRateLimitPerMinute }];
  }
  const auth = request.auth;
  if (!auth) return [];
  if (auth.keyType === 'public') {
    // The address first: one noisy client is refused before it spends the key's shared tokens.
    return [
      { key: `pk-addr:${auth.projectId}:${request.ip}`, limit: ctx.config.publicRateLimit.perAddressPerMinute },
      { key: `pk:${auth.keyId}`, limit: ctx.config.publicRateLimit.perKeyPerMinute },
    ];
  }
  return [{ key: `api:${auth.projectId}`, limit: ctx.config.rateLimitPerMinute }];
}

function announce(reply: FastifyReply, take: Take): string {
  const reset = String(Math.max(1, Math.ceil(take.resetMs / 1000)));
  reply.header('RateLimit-Limit', String(take.limit));
  reply.header('RateLimit-Remaining', String(take.remaining));
  reply.header('RateLimit-Reset', reset);
  return reset;
}

/**
 * Per-minute limits shared across API processes, with RateLimit-* headers on every
 * limited response (those of the tightest bucket). A request refused by one bucket spends no token of the
 * buckets after it.
 */
export function registerRateLimit(app: FastifyInstance, ctx: AppContext, limiter: RateLimiter): void {
  app.addHook('onRequest', async (request, reply) => {
    let tightest: Take | null = null;
    for (const bucket of bucketsOf(request, ctx)) {
      const take = await limiter.take(bucket.key, bucket.limit, MINUTE);
      if (!tightest || take.remaining < tightest.remaining || !take.allowed) tightest = take;
      if (!take.allowed) break;
    }
    if (!tightest) return;
    const reset = announce(reply, tightest);
    if (!tightest.allowed) {
      throw new AppError('RATE_LIMIT_EXCEEDED', `Rate limit of ${tightest.limit} requests per minute exceeded`, {
        headers: { 'Retry-After': reset },
        suggestion: `Retry after ${reset} seconds.`,
      });
    }
  });
}
