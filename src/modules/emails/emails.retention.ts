// Retention of what finished emails carried (RETENTION_EMAIL_CONTENT_DAYS): their bodies, template variables,
// attachments and submitted MIME are dropped; the record, its status, timestamps and counts stay, and so do the
// targets of a tracked email's links, so that its click links go on working (delivery.links.kept.ts). Done in small
// batches, each its own short transaction, so sending goes on beside it on either database: the links are found
// before a batch's transaction, which only writes them.
import { and, asc, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { emailAttachments, emailMime, emails, type EmailStatus } from '../../db/schema/emails.ts';
import { inBatches, retentionCutoff } from '../../lib/retention.ts';
import { defineJob } from '../../queue/registry.ts';
import { linkTargetsOf, type LinkContext } from './emails.links.kept.ts';

/** The statuses an email ends in: nothing will read its content to send it again. */
const FINISHED: EmailStatus[] = ['SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED', 'CANCELLED'];

export const DEFAULT_RETENTION_BATCH = 500;

/** The emails whose content is past its retention: finished, created before the cut-off, content still kept. */
const expired = (before: Date) => and(isNull(emails.contentDroppedAt), lt(emails.createdAt, before), inArray(emails.status, FINISHED));

/** A tracked email that went out: its click links are in someone's mailbox. */
const clickable = sql<boolean>`(${emails.tracking} AND ${emails.sentAt} IS NOT NULL)`;

/** What is read of a column for clickable emails only (the others' bodies are not needed to drop them). */
const ifClickable = (column: typeof emails.html | typeof emails.mimeId | typeof emails.variables) => sql`CASE WHEN ${clickable} THEN ${column} END`.mapWith(column);

/**
 * Side effect: drops the content of up to `limit` finished emails created before `before` (bodies, variables,
 * attachment set, MIME), keeping the link targets of tracked ones that went out, and deletes the attachments and MIME
 * no email points at any more. Answers how many emails it looked at and how many it dropped (fewer when others held
 * some just then).
 */
async function dropContentBatch(ctx: LinkContext, before: Date, limit: number): Promise<{ seen: number; dropped: number }> {
  // Read and rendered outside the transaction: finished content does not change, and the transaction checks again
  // that each email still holds it.
  const due = await ctx.db.select({
    id: emails.id, projectId: emails.projectId, contactId: emails.contactId, sourceType: emails.sourceType, sourceId: emails.sourceId,
    marketing: emails.marketing, contentId: emails.contentId, clickable,
    html: ifClickable(emails.html) as SQL<string | null>, mimeId: ifClickable(emails.mimeId) as SQL<string | null>, variables: ifClickable(emails.variables) as SQL<Record<string, unknown> | null>,
  }).from(emails).where(expired(before)).orderBy(asc(emails.createdAt)).limit(limit);
  if (due.length === 0) return { seen: 0, dropped: 0 };
  const targets = await linkTargetsOf(ctx, due.filter((e) => e.clickable));
  const dropped = await ctx.db.transaction(async (tx) => {
    const locked = await tx.select({ id: emails.id, setId: emails.attachmentSetId, mimeId: emails.mimeId }).from(emails)
      .where(and(inArray(emails.id, due.map((e) => e.id)), expired(before))).for('update', { skipLocked: true });
    if (locked.length === 0) return 0;
    // Each email's targets from one JSON object by id: one statement for the batch, null for an email without any.
    const kept = sql`(${JSON.stringify(Object.fromEntries(targets))}::jsonb -> ${emails.id}::text)`;
    await tx.update(emails)
      .set({ html: null, text: null, variables: null, attachmentSetId: null, mimeId: null, linkTargets: kept, contentDroppedAt: new Date() })
      .where(inArray(emails.id, locked.map((r) => r.id)));
    await dropUnsharedContent(tx, locked);
    return locked.length;
  });
  return { seen: due.length, dropped };
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

/**
 * Drops the content of every finished email older than `days`, batch by batch; answers how many emails. Stops early
 * when a whole batch was held by others (a click counting on each): the next run takes them.
 */
export async function dropExpiredEmailContent(opts: { ctx: LinkContext; days: number; batchSize?: number; now?: Date }): Promise<number> {
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
