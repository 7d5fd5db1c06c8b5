import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { bytea } from './bytea.ts';
import { projects } from './projects.ts';

export type AuthVerdict = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror';

export interface InboundAddress {
  email: string;
  name: string;
}

/**
 * Mail received for a project's receiving domains: one row per project a message reached. The bytes live apart
 * (inbound_content) so lists never read them and retention can drop them alone.
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    fromEmail: text('from_email').notNull(),
    fromName: text('from_name').notNull(),
    /** The envelope recipients (RCPT TO) at this project's domains, lower-cased. */
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    to: jsonb('to').$type<InboundAddress[]>().notNull(),
    cc: jsonb('cc').$type<InboundAddress[]>().notNull(),
    subject: text('subject').notNull(),
    /**
     * The text and HTML bodies, at most 1 MB each (the raw message keeps the rest); null once retention deleted them.
     */
    text: text('text'),
    html: text('html'),
    textTruncated: boolean('text_truncated').notNull().default(false),
    htmlTruncated: boolean('html_truncated').notNull().default(false),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    messageId: text('message_id'),
    inReplyTo: text('in_reply_to'),
    references: jsonb('references').$type<string[]>().notNull(),
    inReplyToEmailId: uuid('in_reply_to_email_id'),
    authentication: jsonb('authentication')
      .$type<{ spf: AuthVerdict; dkim: AuthVerdict; dmarc: AuthVerdict }>()
      .notNull(),
    contactId: uuid('contact_id'),
    size: bigint('size', { mode: 'number' }).notNull(),
    /**
     * Bytes this record keeps (raw message, attachments, text, HTML) toward the project's storage cap; 0 once expired.
     */
    storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull().default(0),
    /** When the message was received (named createdAt for the shared list query). */
    createdAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull(),
    /**
     * When retention deleted the raw message, the attachments' bytes, the text and the HTML; null while they are kept.
     */
    expiredAt: timestamp('expired_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('inbound_project_received_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    // Retention: the oldest unexpired messages first.
    index('inbound_retention_idx')
      .on(t.createdAt)
      .where(sql`expired_at IS NULL`),
  ],
);

/**
 * What each project's received mail keeps, the sum of its unexpired messages' stored_bytes: kept up to date in the
 * transactions that store, delete and expire messages, so the storage cap is one row read per recipient.
 */
export const inboundUsage = pgTable('inbound_usage', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull(),
});

/**
 * The bytes of received messages in pieces of at most 256 KB, so no statement carries a whole message: `part` 0
 * is the message as received, part n the attachment at position n - 1; `seq` orders the pieces. Deleted by
 * retention.
 */
export const inboundContent = pgTable(
  'inbound_content',
  {
    inboundId: uuid('inbound_id')
      .notNull()
      .references(() => inboundMessages.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    seq: integer('seq').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [primaryKey({ columns: [t.inboundId, t.part, t.seq] })],
);

/** A received message's attachments (their bytes are in inbound_content). */
export const inboundAttachments = pgTable(
  'inbound_attachments',
  {
    inboundId: uuid('inbound_id')
      .notNull()
      .references(() => inboundMessages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    id: uuid('id').notNull().unique(),
    filename: text('filename'),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentId: text('content_id'),
  },
  (t) => [primaryKey({ columns: [t.inboundId, t.position] })],
);
