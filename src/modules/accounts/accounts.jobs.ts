import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { deleteExpired } from './accounts.service.ts';

/** Hourly: ended sessions, used or expired links and old failed sign-ins are deleted. */
export const accountsCleanupJob = defineJob({
  name: 'accounts-cleanup',
  schema: z.object({}),
  cron: '29 * * * *',
  queue: { retryLimit: 1, policy: 'singleton', expireInSeconds: 3600 },
  async handler(_payload, ctx: AppContext) {
    const deleted = await deleteExpired(ctx);
    if (deleted > 0) ctx.logger.debug({ deleted }, 'ended sessions and used links deleted');
  },
});
