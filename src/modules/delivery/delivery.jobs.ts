import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { z } from 'zod';
import { defineJob } from '../../queue/registry.ts';
import { deliverEmail } from './delivery.deliver.ts';

/** Queue priorities: transactional mail goes ahead of workflow and campaign mail. */
export const SEND_PRIORITY = { TRANSACTIONAL: 10, TEST: 10, WORKFLOW: 5, CAMPAIGN: 0 } as const;

/** Sends one email; retries (back-off from SEND_RETRY_*) are set on each job when it is enqueued. */
export const deliverEmailJob = defineJob({
  name: 'email-deliver',
  schema: z.object({ emailId: z.string() }),
  // pg-boss fetches the next batch only when this one is done, and paced jobs wait inside it: a batch of about
  // one second's worth keeps transactional mail (higher priority) from queueing behind a long campaign batch.
  batchSize: (config) => (config.sendRatePerSecond > 0 ? Math.min(20, Math.max(1, config.sendRatePerSecond)) : 20),
  queue: { expireInSeconds: 300, retentionSeconds: 30 * 24 * 3600 },
  async handler(payload, ctx, job) {
    await deliverEmail(ctx, payload.emailId, job);
  },
});

/** Queues delivery of freshly created emails inside the caller's transaction, with the configured retry policy. */
export async function enqueueDeliveries(ctx: AppContext, tx: Tx, items: { emailId: string; priority: number }[]): Promise<void> {
  const retry = ctx.config.sendRetry;
  await ctx.queue.enqueueMany(deliverEmailJob, items.map((item) => ({
    payload: { emailId: item.emailId },
    priority: item.priority,
    retryLimit: retry.limit,
    retryDelay: retry.delaySeconds,
    retryBackoff: true,
    retryDelayMax: retry.maxDelaySeconds,
    // A worker killed mid-send leaves its jobs active: a stale heartbeat retries them in about a minute, not after the 5 min expiry.
    heartbeatSeconds: 30,
  })), tx);
}
