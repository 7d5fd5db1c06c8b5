// The row types of the emails table, as the store reads and writes them.
import type { emails } from '../../db/schema/emails.ts';

export type EmailRow = typeof emails.$inferSelect;
/** What the email log's list reads of each email: no bodies, variables, headers or kept link targets. */
export const EMAIL_LIST_OMITS = ['html', 'text', 'variables', 'headers', 'linkTargets'] as const;
export type EmailSummaryRow = Omit<EmailRow, (typeof EMAIL_LIST_OMITS)[number]>;
export type NewEmail = typeof emails.$inferInsert;
