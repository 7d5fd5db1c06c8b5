import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { contacts } from './contacts.ts';
import { projects, timestamps } from './projects.ts';

export type SegmentType = 'DYNAMIC' | 'STATIC';

/**
 * A saved audience. A DYNAMIC segment's members are the contacts matching `filter` at the
 * moment it is used; a STATIC segment (a list) has no filter and its members are rows of segment_members.
 * `segmentRefs` lists the segments the filter names directly, so "who uses this segment" is one query.
 * `trackMembership` records segment.entered / segment.exited events; for a DYNAMIC segment the last
 * computed members are kept in segment_snapshots and `trackedAt` is when that set was last brought up to date.
 */
export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    type: text('type').$type<SegmentType>().notNull().default('DYNAMIC'),
    filter: jsonb('filter').$type<unknown>(),
    segmentRefs: uuid('segment_refs')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    trackMembership: boolean('track_membership').notNull().default(false),
    trackedAt: timestamp('tracked_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (t) => [
    index('segments_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    index('segments_tracked_idx')
      .on(t.trackedAt)
      .where(sql`track_membership AND type = 'DYNAMIC'`),
  ],
);

/** The members of a STATIC segment. */
export const segmentMembers = pgTable(
  'segment_members',
  {
    segmentId: uuid('segment_id')
      .notNull()
      .references(() => segments.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    primaryKey({ columns: [t.segmentId, t.contactId] }),
    // "Which lists is this contact on" (the segment filter condition runs per contact).
    index('segment_members_contact_idx').on(t.contactId),
  ],
);

/** The members of a tracked DYNAMIC segment as last computed: the next computation's set difference is against it. */
export const segmentSnapshots = pgTable(
  'segment_snapshots',
  {
    segmentId: uuid('segment_id')
      .notNull()
      .references(() => segments.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.segmentId, t.contactId] })],
);
