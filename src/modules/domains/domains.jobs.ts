import { z } from 'zod';
import { defineJob } from '../../queue/registry.ts';
import { findDomainsDue } from './domains.repo.ts';
import { verifyDomainNow } from './domains.service.ts';
import type { AppContext } from '../../context.types.ts';

/** Every 5 minutes: re-check pending domains (FAILED after 72 h) and verified ones once a day. */
export const checkDomainsJob = defineJob({
  name: 'domains-check',
  schema: z.object({}),
  cron: '*/5 * * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    for (const row of await findDomainsDue(ctx.db, 200)) {
      try {
        const saved = await verifyDomainNow({ ctx, row });
        if (saved && saved.status !== row.status)
          ctx.logger.info({ domain: row.domain, from: row.status, to: saved.status }, 'domain status changed');
      } catch (error) {
        ctx.logger.warn({ err: error, domain: row.domain }, 'domain check failed');
      }
    }
  },
});
