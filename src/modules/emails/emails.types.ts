// The row types of the emails tables, and the values the repo and the services around it share.
import type { emailContents, emails } from '../../db/schema/emails.ts';

export type EmailRow = typeof emails.$inferSelect;
/** What the email log's list reads of each email: no bodies, variables, headers or kept link targets. */
export const EMAIL_LIST_OMITS = ['html', 'text', 'variables', 'headers', 'linkTargets'] as const;
export type EmailSummaryRow = Omit<EmailRow, (typeof EMAIL_LIST_OMITS)[number]>;
export type NewEmail = typeof emails.$inferInsert;
export type ContentRow = typeof emailContents.$inferSelect;

/** Why held mail waits (its status_reason while it is QUEUED). */
/**
 * Why claimed mail went back to the queue unsent: its project is disabled, its sender domain not verified, its
 * domain's warm-up allowance for the day is used up (marketing only), or its provider throttle has no slot yet.
 */
export type HoldReason = 'HELD_PROJECT_DISABLED' | 'HELD_DOMAIN_NOT_VERIFIED' | 'HELD_WARMUP' | 'HELD_THROTTLE';

/**
 * What an erased address becomes: address-shaped (clients that parse `to` keep working), never deliverable (the
 * `.invalid` top-level domain is reserved and never resolves).
 */
export const ERASED_ADDRESS = 'erased@erased.invalid';

/** A campaign's figures, or those of any set of emails, with the definitions of ACTIVITY_SQL. */
export interface CampaignCounts {
  recipients: number;
  sent: number;
  delivered: number;
  opened: number;
  humanOpened: number;
  clicked: number;
  humanClicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  failed: number;
}
