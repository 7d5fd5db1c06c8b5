// The links inside mail: opens, clicks and unsubscribes counted on the email row.
import { recordEmailStep } from './emails.timeline.ts';
import type { ConsentFollowUp } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import {
  countEmailClick,
  countEmailOpen,
  countLinkClick,
  findEmailSentAt,
  lockEmailEngagement,
  markEmailUnsubscribed,
  type CountedEmail,
} from './emails.repo.ts';

/** What a tracked email held before this open or click: for telling the first (human) one apart. */
export interface Engagement {
  email: CountedEmail;
  /** It was opened / clicked before (by anyone, by a person). */
  before: { any: boolean; human: boolean };
}

/** Counts an open (the first one stamps openedAt, the first person's humanOpenedAt). */
export async function recordOpen(db: Executor, id: string, human: boolean): Promise<Engagement | null> {
  const seen = await lockEmailEngagement(db, id);
  if (!seen) return null;
  const email = await countEmailOpen(db, id, human);
  return email ? { email, before: { any: seen.openedAt !== null, human: seen.humanOpenedAt !== null } } : null;
}

/** When the email was handed over (for the instant-click rule), or null when it is not ours. */
export async function findSentAt(db: Executor, id: string): Promise<{ sentAt: Date | null } | null> {
  return findEmailSentAt(db, id);
}

/**
 * Counts a click (the first one stamps clickedAt); a click implies the message was opened, and a person's click that a
 * person opened it.
 */
export async function recordClick(db: Executor, id: string, human: boolean): Promise<Engagement | null> {
  const seen = await lockEmailEngagement(db, id);
  if (!seen) return null;
  const email = await countEmailClick(db, id, human);
  return email ? { email, before: { any: seen.clickedAt !== null, human: seen.humanClickedAt !== null } } : null;
}

/** Counts a click of one link of a campaign email (the campaign's link report). */
export async function recordLinkClick(
  db: Executor,
  row: { emailId: string; projectId: string; campaignId: string; url: string; human: boolean },
): Promise<void> {
  await countLinkClick(db, row);
}

/**
 * An unsubscribe recorded in the consent ledger through a link of an email (its unsubscribe link, one-click or its
 * preference centre): the email notes it for its campaign's figures and its timeline, only the first time.
 */
export const countUnsubscribes: ConsentFollowUp = async ({ db, source, entries }) => {
  if (!source.emailId || !entries.some((e) => e.action === 'unsubscribed')) return;
  const email = await markEmailUnsubscribed(db, source.emailId);
  if (email) await recordEmailStep(db, email, 'unsubscribed', { via: source.type });
};
