import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { projects, timestamps } from './projects.ts';

/**
 * A saved audience: the contacts matching `filter` (CONTRACT §9) at the moment it is used.
 * `segmentRefs` lists the segments the filter names directly, so "who uses this segment" is one query.
 */
export const segments = pgTable('segments', {
  id: uuid('id').primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description'),
  filter: jsonb('filter').$type<unknown>().notNull(),
  segmentRefs: uuid('segment_refs').array().notNull().default(sql`'{}'::uuid[]`),
  ...timestamps,
}, (t) => [index('segments_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())]);
