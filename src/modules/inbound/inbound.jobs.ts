import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { expireInbound } from './inbound.service.ts';

/** Hourly: deletes the raw bytes and attachments of messages older than INBOUND_RETENTION_DAYS (records stay). */
export const inboundRetentionJob = defineJob({
  name: 'inbound-retention',
  schema: z.object({}),
  cron: '17 * * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    const expired = await expireInbound({ db: ctx.db, days: ctx.config.inbound.retentionDays });
    if (expired > 0) ctx.logger.info({ expired }, 'inbound messages expired');
  },
});
