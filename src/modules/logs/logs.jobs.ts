import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { deleteExpiredLogs } from './logs.service.ts';

/** Hourly: request log entries older than RETENTION_LOGS_DAYS (7) are deleted, in small batches. */
export const logsRetentionJob = defineJob({
  name: 'request-log-retention',
  schema: z.object({}),
  cron: '41 * * * *',
  queue: { retryLimit: 1, policy: 'singleton', expireInSeconds: 3600 },
  async handler(_payload, ctx: AppContext) {
    const deleted = await deleteExpiredLogs({ db: ctx.db, days: ctx.config.requestLog.retentionDays });
    if (deleted > 0) ctx.logger.info({ deleted }, 'request log entries past their retention deleted');
  },
});
