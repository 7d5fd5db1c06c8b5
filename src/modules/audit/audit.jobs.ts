import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { deleteExpiredEntries } from './audit.service.ts';

/** Daily: audit entries older than RETENTION_AUDIT_DAYS (365) are deleted, in small batches. */
export const auditRetentionJob = defineJob({
  name: 'audit-retention',
  schema: z.object({}),
  cron: '17 4 * * *',
  queue: { retryLimit: 1, policy: 'singleton', expireInSeconds: 6 * 3600 },
  async handler(_payload, ctx: AppContext) {
    const deleted = await deleteExpiredEntries({ db: ctx.db, days: ctx.config.auditRetentionDays });
    if (deleted > 0) ctx.logger.info({ deleted }, 'audit entries past their retention deleted');
  },
});
