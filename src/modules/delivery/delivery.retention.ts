// Retention of what finished emails carried (RETENTION_EMAIL_CONTENT_DAYS): their bodies, template variables,
// attachments and submitted MIME are dropped; the record, its status, timestamps and counts stay. Done in small
// batches, each its own short transaction, so sending goes on beside it on either database.
import { and, asc, inArray, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { emailAttachments, emailMime, emails, type EmailStatus } from '../../db/schema/emails.ts';
import { inBatches, retentionCutoff } from '../../lib/retention.ts';
import { defineJob } from '../../queue/registry.ts';

/** The statuses an email ends in: nothing will read its content to send it again. */
const FINISHED: EmailStatus[] = ['SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED', 'CANCELLED'];

export const DEFAULT_RETENTION_BATCH = 500;

/**
 * Side effect: drops the content of up to `limit` finished emails created before `before` (bodies, variables,
 * attachment set, MIME) and deletes the attachments and MIME no email points at any more; answers how many.
 */
async function dropContentBatch(db: Executor, before: Date, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.select({ id: emails.id, setId: emails.attachmentSetId, mimeId: emails.mimeId }).from(emails)
      .where(and(isNull(emails.contentDroppedAt), lt(emails.createdAt, before), inArray(emails.status, FINISHED)))
      .orderBy(asc(emails.createdAt)).limit(limit).for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    await tx.update(emails)
      .set({ html: null, text: null, variables: null, attachmentSetId: null, mimeId: null, contentDroppedAt: new Date() })
      .where(inArray(emails.id, due.map((r) => r.id)));
    await dropUnsharedContent(tx, due);
    return due.length;
  });
}

/**
 * Side effect: deletes the attachment sets and MIME these emails pointed at before their content was dropped, when no
 * email points at them any more (stored once per send and shared by its emails, they go with the last of them).
 */
export async function dropUnsharedContent(tx: Executor, dropped: { setId: string | null; mimeId: string | null }[]): Promise<void> {
  const sets = [...new Set(dropped.flatMap((r) => (r.setId ? [r.setId] : [])))];
  if (sets.length > 0) {
    await tx.delete(emailAttachments).where(and(inArray(emailAttachments.setId, sets),
      sql`NOT EXISTS (SELECT 1 FROM ${emails} WHERE ${emails.attachmentSetId} = ${emailAttachments.setId})`));
  }
  const mimes = [...new Set(dropped.flatMap((r) => (r.mimeId ? [r.mimeId] : [])))];
  if (mimes.length > 0) {
    await tx.delete(emailMime).where(and(inArray(emailMime.id, mimes), sql`NOT EXISTS (SELECT 1 FROM ${emails} WHERE ${emails.mimeId} = ${emailMime.id})`));
  }
}

/** Drops the content of every finished email older than `days`, batch by batch; answers how many emails. */
export async function dropExpiredEmailContent(opts: { db: Executor; days: number; batchSize?: number; now?: Date }): Promise<number> {
  const before = retentionCutoff(opts.days, opts.now);
  return inBatches(opts.batchSize ?? DEFAULT_RETENTION_BATCH, (size) => dropContentBatch(opts.db, before, size));
}

/** Daily: the content of finished emails older than RETENTION_EMAIL_CONTENT_DAYS is dropped (the records stay). */
export const emailContentRetentionJob = defineJob({
  name: 'email-content-retention',
  schema: z.object({}),
  cron: '23 3 * * *',
  // A first run on a large backlog takes a while; one at a time, and not cut off by the default 15 minutes.
  queue: { retryLimit: 1, policy: 'singleton', expireInSeconds: 6 * 3600 },
  async handler(_payload, ctx: AppContext) {
    const dropped = await dropExpiredEmailContent({ db: ctx.db, days: ctx.config.retention.emailContentDays });
    if (dropped > 0) ctx.logger.info({ dropped }, 'email content past its retention dropped');
  },
});
