import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('projects_created_idx').on(t.createdAt.desc(), t.id.desc())],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['secret', 'public'] }).notNull(),
    name: text('name').notNull(),
    /** A key the dashboard made for one sign-in: revoked when that session ends, or after 12 h idle. */
    session: boolean('session').notNull().default(false),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
    /** full: every route; sending: the send, track and verify routes and the relay; read: GET routes only. */
    scope: text('scope', { enum: ['full', 'sending', 'read'] })
      .notNull()
      .default('full'),
    /** The sender domains the key may send from; null: any verified domain of the project. */
    domainIds: uuid('domain_ids').array(),
    /** After this the key answers 401, as if revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('api_keys_project_idx').on(t.projectId, t.createdAt.desc())],
);

export { timestamps };
