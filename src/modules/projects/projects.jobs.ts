import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { deleteEndedSessionKeys } from './projects.service.ts';

/** Every 15 minutes: delete dashboard session keys that ended (revoked on leaving, or idle past 12 hours). */
export const sessionKeysCleanupJob = defineJob({
  name: 'session-keys-cleanup',
  schema: z.object({}),
  cron: '*/15 * * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    const deleted = await deleteEndedSessionKeys({ db: ctx.db });
    if (deleted > 0) ctx.logger.info({ deleted }, 'ended session keys deleted');
  },
});
