import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
 * (inbound_raw, inbound_attachments.content) so lists never read them and retention can drop them alone.
 */
export const inboundMessages = pgTable('inbound_messages', {
  id: uuid('id').primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  fromEmail: text('from_email').notNull(),
  fromName: text('from_name').notNull(),
  /** The envelope recipients (RCPT TO) at this project's domains, lower-cased. */
  recipients: jsonb('recipients').$type<string[]>().notNull(),
  to: jsonb('to').$type<InboundAddress[]>().notNull(),
  cc: jsonb('cc').$type<InboundAddress[]>().notNull(),
  subject: text('subject').notNull(),
  text: text('text'),
  html: text('html'),
  headers: jsonb('headers').$type<Record<string, string>>().notNull(),
  messageId: text('message_id'),
  inReplyTo: text('in_reply_to'),
  references: jsonb('references').$type<string[]>().notNull(),
  inReplyToEmailId: uuid('in_reply_to_email_id'),
  authentication: jsonb('authentication').$type<{ spf: AuthVerdict; dkim: AuthVerdict; dmarc: AuthVerdict }>().notNull(),
  contactId: uuid('contact_id'),
  size: bigint('size', { mode: 'number' }).notNull(),
  /** When the message was received (named createdAt for the shared list query). */
  createdAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull(),
  /** When retention deleted the raw message and the attachments' bytes; null while they are kept. */
  expiredAt: timestamp('expired_at', { withTimezone: true, precision: 3 }),
}, (t) => [
  index('inbound_project_received_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  // Retention: the oldest unexpired messages first.
  index('inbound_retention_idx').on(t.createdAt).where(sql`expired_at IS NULL`),
]);

/** The message as received, byte for byte; deleted by retention. */
export const inboundRaw = pgTable('inbound_raw', {
  inboundId: uuid('inbound_id').primaryKey().references(() => inboundMessages.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
});

/** A received message's attachments: metadata kept, `content` null once retention deleted it. */
export const inboundAttachments = pgTable('inbound_attachments', {
  inboundId: uuid('inbound_id').notNull().references(() => inboundMessages.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  id: uuid('id').notNull().unique(),
  filename: text('filename'),
  contentType: text('content_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  contentId: text('content_id'),
  content: bytea('content'),
}, (t) => [primaryKey({ columns: [t.inboundId, t.position] })]);
