import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { bytea } from './bytea.ts';
import { projects } from './projects.ts';

export type EmailStatus =
  | 'SCHEDULED'
  | 'QUEUED'
  | 'SENDING'
  | 'SENT'
  | 'DELIVERED'
  | 'DEFERRED'
  | 'BOUNCED'
  | 'COMPLAINED'
  | 'FAILED'
  | 'SUPPRESSED'
  | 'CANCELLED';
export type EmailSourceType = 'TRANSACTIONAL' | 'CAMPAIGN' | 'WORKFLOW' | 'TEST' | 'SMTP';

export interface EmailAddress {
  email: string;
  name?: string | null;
}

export interface EmailTag {
  name: string;
  value: string;
}

/**
 * A body shared by many emails (a campaign's send): stored once, rendered per recipient at delivery
 * from the variables fixed on each email row at fan-out.
 */
export const emailContents = pgTable('email_contents', {
  id: uuid('id').primaryKey(),
  projectId: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text'),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * One row per recipient message, and the delivery queue itself: QUEUED/DEFERRED rows are due at
 * `nextAttemptAt`; a SENDING row is leased to `leaseOwner` until `leaseExpiresAt` (then reclaimable).
 * Stored with fillfactor 50 (migration 0008): a claimed batch's new row versions fit on their own pages.
 */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id'),
    toEmail: text('to_email').notNull(),
    toName: text('to_name'),
    fromEmail: text('from_email').notNull(),
    fromName: text('from_name'),
    /** One address, or several joined by `, `. */
    replyTo: text('reply_to'),
    /**
     * One message to several recipients (a send with cc/bcc): every `to`, `cc` and `bcc` address. `toEmail` is then the
     * first `to`; `rcpt` the envelope (RCPT TO), the addresses not suppressed when it was queued. Null for the usual
     * one-recipient email, whose envelope is `toEmail`.
     */
    toList: jsonb('to_list').$type<EmailAddress[]>(),
    cc: jsonb('cc').$type<EmailAddress[]>(),
    bcc: jsonb('bcc').$type<EmailAddress[]>(),
    rcpt: jsonb('rcpt').$type<string[]>(),
    /** The sender's tags (`[{name, value}]`), returned with the email and in its webhook events. */
    tags: jsonb('tags').$type<EmailTag[]>(),
    /** When a SCHEDULED email was (or is) to go out. */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, precision: 3 }),
    subject: text('subject').notNull(),
    /** The rendered body; null when it is rendered at delivery from `contentId` + `variables`. */
    html: text('html'),
    text: text('text'),
    contentId: uuid('content_id'),
    /** The template variables fixed at fan-out (only the ones the content uses). */
    variables: jsonb('variables').$type<Record<string, unknown>>(),
    headers: jsonb('headers').$type<Record<string, string>>(),
    attachmentSetId: uuid('attachment_set_id'),
    /**
     * A message submitted over SMTP: the client's MIME, stored once per submission (email_mime) and sent as written.
     */
    mimeId: uuid('mime_id'),
    /**
     * When retention dropped the bodies, variables, attachments and MIME (RETENTION_EMAIL_CONTENT_DAYS); the record
     * stays.
     */
    contentDroppedAt: timestamp('content_dropped_at', { withTimezone: true, precision: 3 }),
    /**
     * What retention keeps of a tracked email's body: the target of each link, in the order its click links number them
     * (null where no click link leads: not an http(s) URL, or the unsubscribe link); trailing nulls left off. Clicks
     * read it once the content is dropped. Null while the content is kept, and for an email without click links (not
     * tracked, never sent, or none in its body).
     */
    linkTargets: jsonb('link_targets').$type<Array<string | null>>(),
    /**
     * A Message-ID stored by an earlier version (random); null for newer emails, whose Message-ID is
     * `<id@sender domain>` (messageIdFor), derived instead of stored.
     */
    messageId: text('message_id'),
    /**
     * The id SES gave the message when it was handed to SES (SendEmail's MessageId); null with any other
     * transport. An SNS notification applies only to the email it names by this id, so mail sent through SMTP
     * or the outbox is never changed by one.
     */
    sesMessageId: text('ses_message_id'),
    status: text('status').$type<EmailStatus>().notNull(),
    /** The transport that carried it (a transport's id, or `default`); after a failover, the fallback. */
    transportId: text('transport_id'),
    /** The recipient's mailbox provider, from its domain's MX hosts (gmail, microsoft, yahoo, apple, other). */
    provider: text('provider'),
    /** The translation it was rendered in (`pt`), or null for the default. */
    locale: text('locale'),
    statusReason: text('status_reason'),
    sourceType: text('source_type').$type<EmailSourceType>().notNull(),
    sourceId: uuid('source_id'),
    marketing: boolean('marketing').notNull().default(false),
    tracking: boolean('tracking').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    /** Claim order: transactional/test 10, workflow 5, campaign 0. */
    priority: smallint('priority').notNull().default(0),
    /** When a QUEUED/DEFERRED email is (or a SENDING one was) due; unchanged by a claim. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }),
    /** The worker that holds the SENDING lease; only it may settle the email. */
    leaseOwner: text('lease_owner'),
    /** When a SENDING email's lease expires (then any worker may reclaim it). */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, precision: 3 }),
    /**
     * In the delivery queue (SCHEDULED, QUEUED, DEFERRED, SENDING): a SCHEDULED email is due at its time. The due index
     * is partial on this column rather than on `status`, so a claim (QUEUED → SENDING) changes no indexed column and is
     * a HOT update: no new index entries.
     */
    queued: boolean('queued').generatedAlwaysAs(sql`status IN ('SCHEDULED', 'QUEUED', 'DEFERRED', 'SENDING')`),
    lastError: text('last_error'),
    opens: integer('opens').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    openedAt: timestamp('opened_at', { withTimezone: true, precision: 3 }),
    clickedAt: timestamp('clicked_at', { withTimezone: true, precision: 3 }),
    /** The first open / click that was not a machine's (see mail/engagement.ts). */
    humanOpenedAt: timestamp('human_opened_at', { withTimezone: true, precision: 3 }),
    humanClickedAt: timestamp('human_clicked_at', { withTimezone: true, precision: 3 }),
    /** The A/B test variant (index) a campaign email carries; null otherwise. */
    variant: smallint('variant'),
    /** Send-time optimisation: `optimized` (sent at the recipient's best hour) or `holdout` (sent at once). */
    sendTimeGroup: text('send_time_group').$type<'optimized' | 'holdout'>(),
    bouncedAt: timestamp('bounced_at', { withTimezone: true, precision: 3 }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('emails_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    index('emails_contact_idx').on(t.contactId, t.createdAt),
    // Campaign emails are found by emails_campaign_contact_idx; this one serves the other sources (workflows, tests).
    index('emails_source_idx')
      .on(t.sourceId)
      .where(sql`source_type <> 'CAMPAIGN'`),
    // Provider notifications (SES) name a message by its Message-ID header: the id inside it finds newer emails;
    // this index the older ones that stored a random one (a hash index keeps no entry for the others' NULL).
    index('emails_message_id_idx').using('hash', t.messageId),
    // One email per contact per campaign: a repeated fan-out batch inserts nothing twice.
    uniqueIndex('emails_campaign_contact_idx')
      .on(t.sourceId, t.contactId)
      .where(sql`source_type = 'CAMPAIGN'`),
    // GET /emails?tag=name:value (containment, `tags @> '[{"name":…,"value":…}]'`). Only tagged emails: a GIN index
    // keeps an entry even for a NULL, ≈ 58 bytes for each campaign email otherwise.
    index('emails_tags_idx')
      .using('gin', t.tags)
      .where(sql`tags IS NOT NULL`),
    // The delivery queue: due work in claim order; settled emails leave the index.
    index('emails_due_idx')
      .on(t.priority.desc(), t.nextAttemptAt)
      .where(sql`queued`),
    // Retention: the emails still holding content, oldest first; emails leave it once their content is dropped.
    index('emails_content_kept_idx')
      .on(t.createdAt)
      .where(sql`content_dropped_at IS NULL`),
    // Retention deletes a shared attachment set or MIME once no email points at it.
    index('emails_attachment_set_idx')
      .on(t.attachmentSetId)
      .where(sql`attachment_set_id IS NOT NULL`),
    index('emails_mime_idx')
      .on(t.mimeId)
      .where(sql`mime_id IS NOT NULL`),
    // Erasing a contact finds the messages to several that name its address (in To, Cc or Bcc) under another contact's
    // email.
    index('emails_recipients_idx')
      .using('gin', sql`(coalesce(to_list, '[]'::jsonb) || coalesce(cc, '[]'::jsonb) || coalesce(bcc, '[]'::jsonb))`)
      .where(sql`to_list IS NOT NULL`),
  ],
);

/** Clicks of one link of one email: the campaign's link report (clicks, human clicks, unique clicks per URL). */
export const linkClicks = pgTable(
  'link_clicks',
  {
    emailId: uuid('email_id').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The campaign of the email (null for other mail). */
    campaignId: uuid('campaign_id'),
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
    humanClicks: integer('human_clicks').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.emailId, t.url] }),
    index('link_clicks_campaign_idx')
      .on(t.campaignId)
      .where(sql`campaign_id IS NOT NULL`),
  ],
);

/**
 * A message as an SMTP client submitted it (the relay), less the headers Herald reads and removes: stored once per
 * submission and shared by its recipients' emails, which add their own Message-ID and DKIM signature at delivery.
 */
export const emailMime = pgTable('email_mime', {
  id: uuid('id').primaryKey(),
  projectId: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** Attachments stored once per send request and shared by its recipients' messages. */
export const emailAttachments = pgTable(
  'email_attachments',
  {
    setId: uuid('set_id').notNull(),
    position: integer('position').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    /** Sent inline with this Content-ID (`<img src="cid:…">`). */
    cid: text('cid'),
    size: bigint('size', { mode: 'number' }).notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.position] })],
);

/**
 * The story of an email, written as it happens: accepted, rendered, queued, each delivery attempt (with its transport
 * and the server's replies), deferrals, the outcome, reports, opens and clicks, suppression. Ordered by `at`, then
 * `seq` (entries of one moment in the order they were written). Kept as long as the email.
 */
export const emailTimeline = pgTable(
  'email_timeline',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    emailId: uuid('email_id').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    type: text('type').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('email_timeline_email_idx').on(t.emailId, t.at)],
);
