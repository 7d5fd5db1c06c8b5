import {
  doublePrecision,
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
import { domains } from './domains.ts';
import { projects } from './projects.ts';

export type TransportType = 'smtp' | 'ses' | 'outbox';
export type TransportState = 'HEALTHY' | 'DEGRADED' | 'DOWN';
export type MailboxProvider = 'gmail' | 'microsoft' | 'yahoo' | 'apple' | 'other';

/** A transport's settings as shown: everything but its secrets. */
export interface TransportConfig {
  host?: string;
  port?: number;
  secure?: boolean;
  username?: string;
  region?: string;
  accessKeyId?: string;
  snsTopicArns?: string[];
  /** Tests and VPC endpoints: where SES is reached instead of AWS's own address. */
  endpoint?: string;
}

/** A project's own ways to hand mail over (SMTP relays, SES, the outbox), besides the instance's `default`. */
export const transports = pgTable(
  'transports',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').$type<TransportType>().notNull(),
    config: jsonb('config').$type<TransportConfig>().notNull(),
    /** The password or secret access key, sealed with APP_SECRET (null when there is none). Never shown. */
    secret: text('secret'),
    maxPerSecond: doublePrecision('max_per_second'),
    maxConnections: integer('max_connections'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transports_project_name_idx').on(t.projectId, t.name),
    index('transports_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The circuit breaker of each transport, shared by every worker: `key` is a transport's id, or `default` for the
 * instance's own. A probe is claimed by one worker (`probeOwner` until `probeUntil`).
 */
export const transportHealth = pgTable('transport_health', {
  key: text('key').primaryKey(),
  state: text('state').$type<TransportState>().notNull().default('HEALTHY'),
  since: timestamp('since', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  /** Connection failures in a row. */
  failures: integer('failures').notNull().default(0),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true, precision: 3 }),
  /** While DOWN: when the probe may run. */
  downUntil: timestamp('down_until', { withTimezone: true, precision: 3 }),
  /** The next back-off, doubling from 30 s to 10 min; reset when the transport is up again. */
  backoffSeconds: integer('backoff_seconds').notNull().default(30),
  probeOwner: text('probe_owner'),
  probeUntil: timestamp('probe_until', { withTimezone: true, precision: 3 }),
  /** Messages that went to a fallback because this transport was down or failed to connect. */
  failovers: integer('failovers').notNull().default(0),
  lastFailoverAt: timestamp('last_failover_at', { withTimezone: true, precision: 3 }),
});

export interface RoutingRule {
  match: {
    stream?: 'transactional' | 'marketing';
    senderDomain?: string;
    recipientDomain?: string;
    recipientProvider?: MailboxProvider;
    tag?: string;
  };
  transportId: string;
  fallbackIds?: string[];
}

/** A project's routing: the first matching rule names the transport, else `defaultTransportId`. */
export const routing = pgTable('routing', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  rules: jsonb('rules').$type<RoutingRule[]>().notNull(),
  defaultTransportId: text('default_transport_id').notNull().default('default'),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** Transport pacing (maxPerSecond), shared by every worker: the earliest time its next message may go. */
export const transportPacing = pgTable('transport_pacing', {
  key: text('key').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }).notNull(),
});

/**
 * The throttle of a sender domain towards a mailbox provider: the next free slot (spaced by the allowed rate), and
 * the halved rate after a "slow down" deferral (`slowedAt`; it recovers by 10 % every 10 minutes and ends after an
 * hour without another one).
 */
export const sendThrottles = pgTable(
  'send_throttles',
  {
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<MailboxProvider>().notNull(),
    nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }),
    slowedPerHour: doublePrecision('slowed_per_hour'),
    slowedAt: timestamp('slowed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.provider] })],
);

/** Messages handed over and deferred per sender domain, provider and minute (kept two days). */
export const sendCounts = pgTable(
  'send_counts',
  {
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<MailboxProvider>().notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    sent: integer('sent').notNull().default(0),
    deferred: integer('deferred').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.provider, t.minute] }), index('send_counts_minute_idx').on(t.minute)],
);

/** A warming domain's mail per day (UTC): reserved before a message is handed over. */
export const warmupDays = pgTable(
  'warmup_days',
  {
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.day] })],
);
