import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contacts } from './contacts.ts';

export type ConfirmationStatus = 'PENDING' | 'CONFIRMED';

/**
 * Double opt-in: a contact that signed up through POST /v1/subscribe and was sent a confirmation
 * email. `sentAt` paces resends (at most one per 10 minutes).
 */
export const contactConfirmations = pgTable('contact_confirmations', {
  contactId: uuid('contact_id')
    .primaryKey()
    .references(() => contacts.id, { onDelete: 'cascade' }),
  projectId: uuid('project_id').notNull(),
  status: text('status').$type<ConfirmationStatus>().notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, precision: 3 }),
});
