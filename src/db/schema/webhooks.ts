import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects, timestamps } from './projects.ts';

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';
/** `herald`: Herald's event names and bodies, webhook-* headers; `resend`: Resend's, with svix-* headers. */
export type WebhookFormat = 'herald' | 'resend';

/** A customer's endpoint: where events of the project are POSTed, signed with its secret. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types, or `*` for all. */
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** What the endpoint receives: Herald's events (`herald`) or Resend's (`resend`); `events` uses its names. */
    format: text('format').$type<WebhookFormat>().notNull().default('herald'),
    /** `whsec_…`, encrypted with APP_SECRET (it must be readable to sign). */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: requests carry both signatures until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true, precision: 3 }),
    /** First failure since the last success; five days of it disables the endpoint. */
    failingSince: timestamp('failing_since', { withTimezone: true, precision: 3 }),
    disabledReason: text('disabled_reason'),
    /**
     * The sender that holds the endpoint (it alone sends the endpoint's deliveries, one at a time, in order) and
     * until when. A released hold keeps the time it ended: the least recently served endpoint is claimed first.
     */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);

/** A delivery's body: the event's type and data, with its time as `createdAt` (herald) or `created_at` (resend). */
export type WebhookPayload = { type: string; data: Record<string, unknown> } & (
  | { createdAt: string }
  | { created_at: string }
);

/** One event for one endpoint: the durable, retried unit of delivery. Its id is the `webhook-id` header. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The exact JSON body: `{type, createdAt, data}` (a resend endpoint's: `{type, created_at, data}`). */
    payload: jsonb('payload').$type<WebhookPayload>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /**
     * The sender attempting this delivery, and until when (one attempt's lease; a killed sender's claim comes back).
     */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (t) => [
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    // The sender's claims: whether an endpoint has a due delivery, and its next one in order.
    index('webhook_deliveries_endpoint_due_idx')
      .on(t.endpointId, t.nextAttemptAt, t.id)
      .where(sql`status = 'PENDING'`),
    // An email's timeline lists the deliveries of events about it.
    index('webhook_deliveries_email_idx')
      .on(sql`(${t.payload} -> 'data' ->> 'emailId')`)
      .where(sql`${t.payload} -> 'data' ? 'emailId'`),
    index('webhook_deliveries_resend_email_idx')
      .on(sql`(${t.payload} -> 'data' ->> 'email_id')`)
      .where(sql`${t.payload} -> 'data' ? 'email_id'`),
  ],
);
