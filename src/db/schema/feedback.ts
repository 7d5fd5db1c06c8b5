import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

export type FeedbackKind = 'bounce' | 'delay' | 'complaint' | 'delivery';

/**
 * Every report received after the handoff (DSN, ARF, SES notification) that named one of our emails, once per
 * email: the fingerprint (hash of the raw report, or the SNS MessageId) makes a replayed report change nothing.
 */
export const feedbackReports = pgTable(
  'feedback_reports',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    emailId: uuid('email_id').notNull(),
    source: text('source').notNull(),
    kind: text('kind').$type<FeedbackKind>().notNull(),
    fingerprint: text('fingerprint').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // Once per email it names: one DSN sent to two return paths bounces both emails; a replay changes nothing.
    uniqueIndex('feedback_reports_fingerprint_idx').on(t.projectId, t.fingerprint, t.emailId),
    index('feedback_reports_email_idx').on(t.emailId),
  ],
);
