import { boolean, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { projects, timestamps } from './projects.ts';
import { segments } from './segments.ts';
import { layouts } from './layouts.ts';
import { templates, type ContentFormat, type Translations } from './templates.ts';
import { topics } from './topics.ts';

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'TESTING' | 'PAUSED' | 'SENT' | 'CANCELLED';

/** One version of an A/B test: what it leaves out comes from the campaign. */
export interface CampaignVariant {
  id: string;
  subject?: string | undefined;
  body?: string | undefined;
  /** mjml and blocks campaigns: the variant's own source (its compiled HTML is `body`). */
  content?: unknown;
  from?: string | undefined;
  fromName?: string | null | undefined;
}

export interface AbTest {
  testPercent: number;
  metric: 'opens' | 'clicks';
  waitFor: string;
}

/** Which walk of the audience the fan-out is on: the test share of an A/B test, or the rest with the winner. */
export type FanoutPhase = 'TEST' | 'REST';
export type AudienceType = 'ALL' | 'SEGMENT' | 'FILTERED';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A marketing email to an audience. While SENDING, `fanoutCursor` (the last contact id given an email)
 * is the checkpoint the fan-out resumes from, committed with each batch of emails.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    subject: text('subject').notNull(),
    /** format html: the HTML source; mjml and blocks: the compiled HTML (read-only). */
    body: text('body').notNull(),
    format: text('format').$type<ContentFormat>().notNull().default('html'),
    content: jsonb('content').$type<unknown>(),
    /** The layout it names; null with noLayout false: the project's default layout (applied when sending starts). */
    layoutId: uuid('layout_id').references(() => layouts.id, { onDelete: 'set null' }),
    noLayout: boolean('no_layout').notNull().default(false),
    translations: jsonb('translations').$type<Translations>(),
    /** The template it was made from, and that template's published version then. */
    templateId: uuid('template_id').references(() => templates.id, { onDelete: 'set null' }),
    templateVersion: integer('template_version'),
    fromEmail: text('from_email').notNull(),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    audienceType: text('audience_type').$type<AudienceType>().notNull(),
    segmentId: uuid('segment_id').references(() => segments.id, { onDelete: 'set null' }),
    audienceFilter: jsonb('audience_filter').$type<unknown>(),
    /**
     * Segments the audience names (segmentId and those in audienceFilter): they cannot be deleted while it is unsent.
     */
    segmentRefs: uuid('segment_refs')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Only contacts whose choice for this topic is in receive it. */
    topicId: uuid('topic_id').references(() => topics.id, { onDelete: 'set null' }),
    /** Sent even to contacts the project's frequency cap would hold back (its emails still count toward the cap). */
    ignoreFrequencyCap: boolean('ignore_frequency_cap').notNull().default(false),
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
    /** Why a PAUSED campaign paused: null when paused by hand, else the reputation guard's reason. */
    pausedReason: text('paused_reason'),
    /** When it was last resumed: the reputation guard then judges only what was settled since. */
    resumedAt: at('resumed_at'),
    /** A/B test: 2–5 variants and the test's settings; null for a plain campaign. */
    variants: jsonb('variants').$type<CampaignVariant[]>(),
    abTest: jsonb('ab_test').$type<AbTest>(),
    /** A/B test: the walk the fan-out is on (null for a plain campaign). */
    fanoutPhase: text('fanout_phase').$type<FanoutPhase>(),
    /** A/B test: audience contacts walked in the TEST phase (the test share is taken evenly along the walk). */
    fanoutSeen: integer('fanout_seen').notNull().default(0),
    /** A/B test: each variant's stored content, by variant index (stored with the first batch). */
    variantContentIds: jsonb('variant_content_ids').$type<string[]>(),
    /** Each translation's stored content by locale (stored with the first batch). */
    localeContentIds: jsonb('locale_content_ids').$type<Record<string, string>>(),
    /** A/B test: when the wait after the test send ends (the winner is picked then). */
    testEndsAt: at('test_ends_at'),
    /** A/B test: the index of the variant that went (or goes) to the rest. */
    winnerVariant: smallint('winner_variant'),
    /**
     * A send at each recipient's local time: the wall-clock time ("09:00") and the date ("2026-03-29"); null otherwise.
     */
    localTime: text('local_time'),
    localDate: text('local_date'),
    /** A local-time send: the latest time an email of it is due (its last time zone's turn), raised batch by batch. */
    localEndsAt: at('local_ends_at'),
    /** A local-time send: recipients whose `data.timezone` is no time zone (they get the project's). */
    unknownTimeZones: integer('unknown_time_zones').notNull().default(0),
    /**
     * Send-time optimisation: each recipient's email is due at their best hour within this many seconds of the send;
     * null for any other send.
     */
    optimizeWithinSeconds: integer('optimize_within_seconds'),
    /** Send-time optimisation: the share of recipients (percent) sent at once, to compare against. */
    holdoutPercent: smallint('holdout_percent'),
    ...timestamps,
  },
  (t) => [
    index('campaigns_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    index('campaigns_active_idx')
      .on(t.status)
      .where(sql`status IN ('SCHEDULED', 'SENDING', 'TESTING', 'PAUSED')`),
  ],
);
