import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects, timestamps } from './projects.ts';

/** Largest stored `data` of a contact, in bytes of its JSON text (also checked on every request). */
export const CONTACT_DATA_MAX_BYTES = 65_536;

export type JsonObject = Record<string, unknown>;

/**
 * The audience of a project. `email` is stored trimmed and lower-cased by the one upsert path, so the
 * unique (project_id, email) index is the case-insensitive uniqueness rule and the ON CONFLICT target.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    subscribed: boolean('subscribed').notNull().default(true),
    data: jsonb('data').$type<JsonObject>().notNull().default({}),
    /** The language the contact reads (BCP 47, e.g. pt-BR): picks translations and the hosted pages' language. */
    locale: text('locale'),
    /** Until then the contact gets no marketing mail (SUPPRESSED, reason SNOOZED); null: not snoozed. */
    snoozedUntil: timestamp('snoozed_until', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_project_email_idx').on(t.projectId, t.email),
    index('contacts_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    // Keyset walks of an audience (campaign fan-out) go by contact id within a project.
    index('contacts_project_id_idx').on(t.projectId, t.id),
    index('contacts_data_idx').using('gin', t.data),
    check('contacts_data_size', sql`octet_length(${t.data}::text) <= ${sql.raw(String(CONTACT_DATA_MAX_BYTES))}`),
  ],
);

/**
 * A bulk import: the raw upload is kept until the job finishes, and `processed` is the checkpoint a
 * restarted job resumes from (rows before it are committed together with the counters).
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    format: text('format', { enum: ['csv', 'json'] }).notNull(),
    source: text('source'),
    total: integer('total').notNull(),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    errors: jsonb('errors').$type<ImportRowError[]>().notNull().default([]),
    failure: text('failure'),
    ...timestamps,
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('contact_imports_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);

export interface ImportRowError {
  row: number;
  email?: string;
  reason: string;
}

export const BULK_ACTIONS = [
  'subscribe',
  'unsubscribe',
  'delete',
  'addToSegment',
  'removeFromSegment',
  'setData',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/**
 * A bulk action on contacts (POST /contacts/bulk). Its targets are numbered rows of contact_bulk_targets;
 * `processed` is the checkpoint: targets up to that position are done, committed with the counters.
 */
export const contactBulkActions = pgTable(
  'contact_bulk_actions',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    action: text('action', { enum: BULK_ACTIONS }).notNull(),
    status: text('status', { enum: ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] })
      .notNull()
      .default('QUEUED'),
    /** The segments filter whose matches are the targets (resolved when the job starts); null for a list of ids. */
    filter: jsonb('filter').$type<JsonObject>(),
    segmentId: uuid('segment_id'),
    data: jsonb('data').$type<JsonObject>(),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    failure: text('failure'),
    ...timestamps,
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('contact_bulk_actions_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);

/** The contacts a bulk action works through, in order (position 1..total); dropped when it finishes. */
export const contactBulkTargets = pgTable(
  'contact_bulk_targets',
  {
    bulkId: uuid('bulk_id')
      .notNull()
      .references(() => contactBulkActions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** No foreign key: a contact deleted before its turn stays a target (and counts as failed). */
    contactId: uuid('contact_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bulkId, t.position] })],
);
