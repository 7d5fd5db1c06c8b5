import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { projects, timestamps } from './projects.ts';
import { segments } from './segments.ts';

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
export type AudienceType = 'ALL' | 'SEGMENT' | 'FILTERED';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A marketing email to an audience. While SENDING, `fanoutCursor` (the last contact id given an email)
 * is the checkpoint the fan-out resumes from, committed with each batch of emails.
 */
export const campaigns = pgTable('campaigns', {
  id: uuid('id').primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description'),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  fromEmail: text('from_email').notNull(),
  fromName: text('from_name'),
  replyTo: text('reply_to'),
  audienceType: text('audience_type').$type<AudienceType>().notNull(),
  segmentId: uuid('segment_id').references(() => segments.id, { onDelete: 'set null' }),
  audienceFilter: jsonb('audience_filter').$type<unknown>(),
  /** Segments the audience names (segmentId and those in audienceFilter): they cannot be deleted while it is unsent. */
  segmentRefs: uuid('segment_refs').array().notNull().default(sql`'{}'::uuid[]`),
  status: text('status').$type<CampaignStatus>().notNull().default('DRAFT'),
  scheduledAt: at('scheduled_at'),
  /** When sending began. */
  sentAt: at('sent_at'),
  /** When every email of the campaign reached a final state. */
  completedAt: at('completed_at'),
  fanoutCursor: uuid('fanout_cursor'),
  /** The body its emails render from at delivery, stored once when the send starts. */
  contentId: uuid('content_id'),
  fanoutDone: boolean('fanout_done').notNull().default(false),
  /** Emails created by the fan-out so far. */
  recipients: integer('recipients').notNull().default(0),
  ...timestamps,
}, (t) => [
  index('campaigns_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  index('campaigns_active_idx').on(t.status).where(sql`status IN ('SCHEDULED', 'SENDING')`),
]);
