import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

export type TemplateType = 'TRANSACTIONAL' | 'MARKETING';

export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    type: text('type').$type<TemplateType>().notNull(),
    fromEmail: text('from_email'),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    /** The editor's sample variables for previews and test sends (a JSON object), kept with the template. */
    sampleData: jsonb('sample_data').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('templates_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);
