import { z } from 'zod';
import { lt } from 'drizzle-orm';
import { rateLimitBuckets } from '../../db/schema/index.ts';
import { purgeIdempotencyKeys } from '../../plugins/idempotency.ts';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../registry.ts';

/** Hourly housekeeping: expired idempotency keys and finished rate-limit windows. */
export const purgeExpiredJob = defineJob({
  name: 'maintenance-purge',
  schema: z.object({}),
  cron: '17 * * * *',
  queue: { retryLimit: 2, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    const keys = await purgeIdempotencyKeys(ctx.db);
    const buckets = await ctx.db
      .delete(rateLimitBuckets)
      .where(lt(rateLimitBuckets.windowStart, new Date(Date.now() - 60 * 60 * 1000)))
      .returning({ b: rateLimitBuckets.bucket });
    ctx.logger.info({ keys, buckets: buckets.length }, 'purged expired idempotency keys and rate-limit windows');
  },
});
