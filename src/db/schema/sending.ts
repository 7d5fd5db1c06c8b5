import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

/** Per-project send pacing: the earliest time the project's next message may be handed over. */
export const sendPacing = pgTable('send_pacing', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }).notNull(),
});
