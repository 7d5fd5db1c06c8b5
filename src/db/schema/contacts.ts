import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
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
    /** Double opt-in: PENDING once a confirmation email was sent, CONFIRMED once confirmed; null when never asked. */
    confirmationStatus: text('confirmation_status', { enum: ['PENDING', 'CONFIRMED'] }),
    /** When the last confirmation email was sent (resends are paced by it). */
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true, precision: 3 }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, precision: 3 }),
    // Engagement: kept on the contact (not derived from events or emails), so their retention never changes it.
    /** The last open / click made by a person (never a machine's: see mail/engagement.ts). */
    lastHumanOpenAt: timestamp('last_human_open_at', { withTimezone: true, precision: 3 }),
    lastHumanClickAt: timestamp('last_human_click_at', { withTimezone: true, precision: 3 }),
    /**
     * People's opens and clicks by UTC hour of the week (168 counts, Monday 00:00 UTC first; each email's first
     * human open and first human click count once); null until the first one.
     */
    engagementHours: integer('engagement_hours').array(),
    /** Marketing mail handed over to this contact: the first and last handoff, and how many. */
    firstMarketingAt: timestamp('first_marketing_at', { withTimezone: true, precision: 3 }),
    lastMarketingAt: timestamp('last_marketing_at', { withTimezone: true, precision: 3 }),
    marketingReceived: integer('marketing_received').notNull().default(0),
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

/**
 * The daily engagement sweep of a project (sunsetting dormant contacts): the day it is for and `cursor`, the last
 * contact id done, committed with each batch's changes, so a run stopped part-way resumes after it.
 */
export const engagementSweeps = pgTable('engagement_sweeps', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  cursor: uuid('cursor'),
  unsubscribed: integer('unsubscribed').notNull().default(0),
  finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export type ContactPropertyType = 'string' | 'number';

/**
 * A declared key of contacts' `data`: its type, and the value templates render where a contact has none (absent,
 * null or ""). Declaring a key changes no contact; deleting the declaration leaves their data as it is.
 */
export const contactProperties = pgTable(
  'contact_properties',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    type: text('type').$type<ContactPropertyType>().notNull(),
    fallback: jsonb('fallback').$type<string | number | null>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contact_properties_project_key_idx').on(t.projectId, t.key),
    index('contact_properties_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  ],
);
