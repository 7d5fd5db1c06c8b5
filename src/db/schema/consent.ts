import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contacts } from './contacts.ts';
import { projects } from './projects.ts';

/** What a consent entry records about the person's choice. */
export const CONSENT_ACTIONS = [
  'subscribed',
  'unsubscribed',
  'confirmed',
  'topic_in',
  'topic_out',
  'snoozed',
  'unsnoozed',
] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];

/** Where the change came from: the door it came through (a form, a link in mail, the API, a job…). */
export const CONSENT_SOURCES = [
  'api',
  'form',
  'import',
  'dashboard',
  'preference_centre',
  'unsubscribe_link',
  'one_click',
  'complaint',
  'bulk',
  'sunset',
  'workflow',
] as const;
export type ConsentSourceType = (typeof CONSENT_SOURCES)[number];

/**
 * The consent ledger: one row per change of a contact's subscription, topic choices, confirmation or pause, written in
 * the transaction of the change and never changed afterwards. It goes with the contact when the contact is erased.
 */
export const consentLedger = pgTable(
  'consent_ledger',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    action: text('action', { enum: CONSENT_ACTIONS }).notNull(),
    sourceType: text('source_type', { enum: CONSENT_SOURCES }).notNull(),
    /** The form, import, bulk action, email, workflow or complaint the change came through. */
    sourceId: text('source_id'),
    /** The topic of a topic_in / topic_out entry. */
    topicId: uuid('topic_id'),
    /** The email whose link led to the change (its campaign counts the unsubscribe). */
    emailId: uuid('email_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The wording the person agreed to (a form's consent text). */
    text: text('text'),
  },
  (t) => [index('consent_ledger_contact_idx').on(t.contactId, t.at, t.id)],
);
