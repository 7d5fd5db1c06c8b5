import { sql, type SQL } from 'drizzle-orm';

/** The email activities the filter language and the stats name. */
export const EMAIL_ACTIVITIES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type EmailActivity = (typeof EMAIL_ACTIVITIES)[number];

/**
 * What each email activity means on a row of `emails m`: the one definition behind every figure (filter
 * conditions, campaign stats, GET /emails/stats and so the dashboard's overview). "sent" = handed to the
 * transport (a later bounce or complaint included); "delivered" = a provider reported the delivery (status
 * DELIVERED, never guessed), so with the outbox or a plain SMTP relay it stays 0 and "sent" carries the count.
 * `at` is when the activity happened, which puts it on a day of the stats.
 */
export const ACTIVITY_SQL: Record<EmailActivity, { match: SQL; at: SQL }> = {
  sent: {
    match: sql.raw(`m.status IN ('SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED')`),
    at: sql.raw('coalesce(m.sent_at, m.bounced_at, m.updated_at)'),
  },
  delivered: { match: sql.raw(`m.status = 'DELIVERED'`), at: sql.raw('m.updated_at') },
  opened: { match: sql.raw('m.opened_at IS NOT NULL'), at: sql.raw('m.opened_at') },
  clicked: { match: sql.raw('m.clicked_at IS NOT NULL'), at: sql.raw('m.clicked_at') },
  bounced: { match: sql.raw(`m.status = 'BOUNCED'`), at: sql.raw('coalesce(m.bounced_at, m.updated_at)') },
  complained: { match: sql.raw(`m.status = 'COMPLAINED'`), at: sql.raw('m.updated_at') },
};

/**
 * The activities a person made, told apart from machines' (mail/engagement.ts): `"human": true` in a filter, human* in
 * stats.
 */
export const HUMAN_ACTIVITY_SQL: Partial<Record<EmailActivity, { match: SQL; at: SQL }>> = {
  opened: { match: sql.raw('m.human_opened_at IS NOT NULL'), at: sql.raw('m.human_opened_at') },
  clicked: { match: sql.raw('m.human_clicked_at IS NOT NULL'), at: sql.raw('m.human_clicked_at') },
};
