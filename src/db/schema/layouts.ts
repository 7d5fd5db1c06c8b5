import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

export type LayoutFormat = 'html' | 'mjml';

/**
 * The frame templates and campaigns are put in: a header and a footer around one `{{ content }}`. At most one
 * layout of a project is its default, used by templates and campaigns that name none.
 */
export const layouts = pgTable(
  'layouts',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    format: text('format').$type<LayoutFormat>().notNull(),
    /** The source: HTML, or MJML, holding `{{ content }}` once. */
    body: text('body').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('layouts_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('layouts_project_default_idx')
      .on(t.projectId)
      .where(sql`${t.isDefault}`),
  ],
);
