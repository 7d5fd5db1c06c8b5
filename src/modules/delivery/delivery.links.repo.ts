// Queries of the links inside mail: opens, clicks and unsubscribes counted on the email row.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/emails.ts';

/** What an open or click needs of its email: the counters, and the fields of its webhook event. */
const counted = {
  id: emails.id, projectId: emails.projectId, contactId: emails.contactId, toEmail: emails.toEmail, fromEmail: emails.fromEmail,
  subject: emails.subject, sourceType: emails.sourceType, sourceId: emails.sourceId, messageId: emails.messageId, tags: emails.tags,
  opens: emails.opens, clicks: emails.clicks,
};

export type CountedEmail = { [K in keyof typeof counted]: (typeof emails.$inferSelect)[K] };

// Side effect: counts an open (the first one stamps openedAt); one small UPDATE whatever the count.
export async function recordOpen(db: Executor, id: string): Promise<CountedEmail | null> {
  const [row] = await db.update(emails).set({ opens: sql`${emails.opens} + 1`, openedAt: sql`coalesce(${emails.openedAt}, now())` })
    .where(eq(emails.id, id)).returning(counted);
  return row ?? null;
}

// Side effect: counts a click (the first one stamps clickedAt); a click implies the message was opened.
export async function recordClick(db: Executor, id: string): Promise<CountedEmail | null> {
  const [row] = await db.update(emails).set({
    clicks: sql`${emails.clicks} + 1`,
    clickedAt: sql`coalesce(${emails.clickedAt}, now())`,
    openedAt: sql`coalesce(${emails.openedAt}, now())`,
  }).where(eq(emails.id, id)).returning(counted);
  return row ?? null;
}

// Side effect: notes that the recipient unsubscribed through this email (campaign stats); only the first time.
export async function recordUnsubscribe(db: Executor, id: string): Promise<void> {
  await db.update(emails).set({ unsubscribedAt: sql`now()` }).where(and(eq(emails.id, id), isNull(emails.unsubscribedAt)));
}

/** A tracked email's body as stored, or what renders it again (campaign mail): where click links are looked up by index. */
export async function findTrackedBody(db: Executor, id: string) {
  const [row] = await db.select({
    id: emails.id, projectId: emails.projectId, contactId: emails.contactId, sourceType: emails.sourceType, sourceId: emails.sourceId,
    marketing: emails.marketing, html: emails.html, contentId: emails.contentId, variables: emails.variables,
  }).from(emails).where(and(eq(emails.id, id), eq(emails.tracking, true)));
  return row ?? null;
}
