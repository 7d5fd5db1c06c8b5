import { boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contacts } from './contacts.ts';
import { projects, timestamps } from './projects.ts';

export type TopicDefault = 'OPT_IN' | 'OPT_OUT';

/**
 * A subject a contact can choose to hear about. OPT_IN topics reach only contacts who chose
 * in; OPT_OUT topics reach everyone who did not choose out. The default never changes after create.
 */
export const topics = pgTable(
  'topics',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    defaultSubscription: text('default_subscription').$type<TopicDefault>().notNull(),
    ...timestamps,
  },
  (t) => [index('topics_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);

/** A contact's own choice for a topic; no row means the topic's default. */
export const contactTopics = pgTable(
  'contact_topics',
  {
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    subscribed: boolean('subscribed').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.topicId] }),
    index('contact_topics_topic_idx').on(t.topicId, t.subscribed),
  ],
);
