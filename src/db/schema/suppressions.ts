import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

export type SuppressionReason = 'BOUNCE' | 'COMPLAINT' | 'MANUAL';

/** Addresses the project never sends to (hard bounces, complaints, manual blocks). */
export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').notNull().unique(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    reason: text('reason').$type<SuppressionReason>().notNull(),
    detail: text('detail'),
    emailId: uuid('email_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.email] }),
    index('suppressions_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  ],
);
