// Retention of what finished emails carried (RETENTION_EMAIL_CONTENT_DAYS): their bodies, template variables,
// attachments and submitted MIME are dropped; the record, its status, timestamps and counts stay, and so do the
// targets of a tracked email's links, so that its click links go on working (delivery.links.kept.ts). Done in small
// batches, each its own short transaction, so sending goes on beside it on either database: the links are found
// before a batch's transaction, which only writes them.
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { inBatches, retentionCutoff } from '../../lib/retention.ts';
import { defineJob } from '../../queue/registry.ts';
import { linkTargetsOf, type LinkContext } from './emails.links.kept.ts';
import {
  deleteUnsharedContent,
  dropEmailContent,
  findExpiredContentEmails,
  lockExpiredContentEmails,
} from './emails.repo.ts';

export const DEFAULT_RETENTION_BATCH = 500;

/**
 * Side effect: drops the content of up to `limit` finished emails created before `before` (bodies, variables,
 * attachment set, MIME), keeping the link targets of tracked ones that went out, and deletes the attachments and MIME
 * no email points at any more. Answers how many emails it looked at and how many it dropped (fewer when others held
 * some just then).
 */
async function dropContentBatch(
  ctx: LinkContext,
  before: Date,
  limit: number,
): Promise<{ seen: number; dropped: number }> {
  // Read and rendered outside the transaction: finished content does not change, and the transaction checks again
  // that each email still holds it.
  const due = await findExpiredContentEmails(ctx.db, before, limit);
  if (due.length === 0) return { seen: 0, dropped: 0 };
  const targets = await linkTargetsOf(
    ctx,
    due.filter((e) => e.clickable),
  );
  const dropped = await ctx.db.transaction(async (tx) => {
    const locked = await lockExpiredContentEmails(
      tx,
      due.map((e) => e.id),
      before,
    );
    if (locked.length === 0) return 0;
    await dropEmailContent(
      tx,
      locked.map((r) => r.id),
      targets,
    );
    await deleteUnsharedContent(tx, locked);
    return locked.length;
  });
  return { seen: due.length, dropped };
}

/**
 * Drops the content of every finished email older than `days`, batch by batch; answers how many emails. Stops early
 * when a whole batch was held by others (a click counting on each): the next run takes them.
 */
export async function dropExpiredEmailContent(opts: {
  ctx: LinkContext;
  days: number;
  batchSize?: number;
  now?: Date;
}): Promise<number> {
  const before = retentionCutoff(opts.days, opts.now);
  let dropped = 0;
  await inBatches(opts.batchSize ?? DEFAULT_RETENTION_BATCH, async (size) => {
    const batch = await dropContentBatch(opts.ctx, before, size);
    dropped += batch.dropped;
    return batch.dropped === 0 ? 0 : batch.seen;
  });
  return dropped;
}

/** Daily: the content of finished emails older than RETENTION_EMAIL_CONTENT_DAYS is dropped (the records stay). */
export const emailContentRetentionJob = defineJob({
  name: 'email-content-retention',
  schema: z.object({}),
  cron: '23 3 * * *',
  // A first run on a large backlog takes a while; one at a time, and not cut off by the default 15 minutes.
  queue: { retryLimit: 1, policy: 'singleton', expireInSeconds: 6 * 3600 },
  async handler(_payload, ctx: AppContext) {
    const dropped = await dropExpiredEmailContent({ ctx, days: ctx.config.retention.emailContentDays });
    if (dropped > 0) ctx.logger.info({ dropped }, 'email content past its retention dropped');
  },
});
