// Queries of the links inside mail: opens, clicks and unsubscribes counted on the email row.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails, linkClicks } from '../../db/schema/emails.ts';

/** What an open or click needs of its email: the counters, and the fields of its webhook event. */
const counted = {
  id: emails.id, projectId: emails.projectId, contactId: emails.contactId, toEmail: emails.toEmail, toList: emails.toList,
  fromEmail: emails.fromEmail,
  subject: emails.subject, sourceType: emails.sourceType, sourceId: emails.sourceId, messageId: emails.messageId, tags: emails.tags,
  opens: emails.opens, clicks: emails.clicks,
};

export type CountedEmail = { [K in keyof typeof counted]: (typeof emails.$inferSelect)[K] };

/** What a tracked email held before this open or click: for telling the first (human) one apart. */
export interface Engagement {
  email: CountedEmail;
  /** It was opened / clicked before (by anyone, by a person). */
  before: { any: boolean; human: boolean };
}

/** The email's send time and first engagements, locked for the counting update that follows. */
async function lockEngagement(db: Executor, id: string) {
  const [row] = await db.select({ sentAt: emails.sentAt, openedAt: emails.openedAt, clickedAt: emails.clickedAt, humanOpenedAt: emails.humanOpenedAt, humanClickedAt: emails.humanClickedAt })
    .from(emails).where(eq(emails.id, id)).for('update');
  return row ?? null;
}

// Side effect: counts an open (the first one stamps openedAt, the first person's humanOpenedAt).
export async function recordOpen(db: Executor, id: string, human: boolean): Promise<Engagement | null> {
  const seen = await lockEngagement(db, id);
  if (!seen) return null;
  const [row] = await db.update(emails).set({
    opens: sql`${emails.opens} + 1`,
    openedAt: sql`coalesce(${emails.openedAt}, now())`,
    ...(human ? { humanOpenedAt: sql`coalesce(${emails.humanOpenedAt}, now())` } : {}),
  }).where(eq(emails.id, id)).returning(counted);
  return row ? { email: row, before: { any: seen.openedAt !== null, human: seen.humanOpenedAt !== null } } : null;
}

/** When the email was handed over (for the instant-click rule), or null when it is not ours. */
export async function findSentAt(db: Executor, id: string): Promise<{ sentAt: Date | null } | null> {
  const [row] = await db.select({ sentAt: emails.sentAt }).from(emails).where(eq(emails.id, id));
  return row ?? null;
}

// Side effect: counts a click (the first one stamps clickedAt); a click implies the message was opened, and a
// person's click that a person opened it.
export async function recordClick(db: Executor, id: string, human: boolean): Promise<Engagement | null> {
  const seen = await lockEngagement(db, id);
  if (!seen) return null;
  const [row] = await db.update(emails).set({
    clicks: sql`${emails.clicks} + 1`,
    clickedAt: sql`coalesce(${emails.clickedAt}, now())`,
    openedAt: sql`coalesce(${emails.openedAt}, now())`,
    ...(human ? { humanClickedAt: sql`coalesce(${emails.humanClickedAt}, now())`, humanOpenedAt: sql`coalesce(${emails.humanOpenedAt}, now())` } : {}),
  }).where(eq(emails.id, id)).returning(counted);
  return row ? { email: row, before: { any: seen.clickedAt !== null, human: seen.humanClickedAt !== null } } : null;
}

// Side effect: counts a click of one link of a campaign email (the campaign's link report).
export async function recordLinkClick(db: Executor, row: { emailId: string; projectId: string; campaignId: string; url: string; human: boolean }): Promise<void> {
  const human = row.human ? 1 : 0;
  await db.insert(linkClicks).values({ emailId: row.emailId, projectId: row.projectId, campaignId: row.campaignId, url: row.url.slice(0, 2000), clicks: 1, humanClicks: human })
    .onConflictDoUpdate({ target: [linkClicks.emailId, linkClicks.url], set: { clicks: sql`${linkClicks.clicks} + 1`, humanClicks: sql`${linkClicks.humanClicks} + ${human}` } });
}

// Side effect: notes that the recipient unsubscribed through this email (campaign stats); only the first time.
export async function recordUnsubscribe(db: Executor, id: string): Promise<void> {
  await db.update(emails).set({ unsubscribedAt: sql`now()` }).where(and(eq(emails.id, id), isNull(emails.unsubscribedAt)));
}

/**
 * A tracked email's body as stored, or what renders it again (campaign mail), or once retention dropped its content the
 * link targets it kept: where click links are looked up by index.
 */
export async function findTrackedBody(db: Executor, id: string) {
  const [row] = await db.select({
    id: emails.id, projectId: emails.projectId, contactId: emails.contactId, sourceType: emails.sourceType, sourceId: emails.sourceId,
    marketing: emails.marketing, html: emails.html, mimeId: emails.mimeId, contentId: emails.contentId, variables: emails.variables,
    contentDroppedAt: emails.contentDroppedAt, linkTargets: emails.linkTargets,
  }).from(emails).where(and(eq(emails.id, id), eq(emails.tracking, true)));
  return row ?? null;
}
