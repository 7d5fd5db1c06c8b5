import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contacts, type JsonObject } from './contacts.ts';

/**
 * What happened to a contact: tracked events and the service's own (`email.*`, `contact.*`).
 * `project_id` has no foreign key of its own: the contact's cascade already removes a project's events,
 * and a key-share lock on the project row per insert would be contention on the hottest write path.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id').notNull(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    data: jsonb('data').$type<JsonObject>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // contact_id last: segment conditions on events ("purchase within 30d") read it from the index alone.
    index('events_project_name_created_idx').on(t.projectId, t.name, t.createdAt, t.id, t.contactId),
    index('events_contact_name_created_idx').on(t.contactId, t.name, t.createdAt),
    index('events_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    // Retention (RETENTION_EVENTS_DAYS) deletes the oldest events first, across projects.
    index('events_created_idx').on(t.createdAt),
  ],
);
