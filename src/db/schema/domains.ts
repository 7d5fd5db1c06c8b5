import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { projects } from './projects.ts';

export type DomainStatus = 'PENDING' | 'VERIFIED' | 'FAILED' | 'TEMPORARY_FAILURE';
export type RecordPurpose =
  | 'DKIM'
  | 'SPF'
  | 'DMARC'
  | 'DMARC_REPORTS'
  | 'TLS_REPORTS'
  | 'RETURN_PATH'
  | 'INBOUND'
  | 'TRACKING';
export type RecordStatus = 'PENDING' | 'VERIFIED' | 'FAILED';

export interface DomainRecord {
  purpose: RecordPurpose;
  type: 'TXT' | 'CNAME' | 'MX';
  name: string;
  value: string;
  /** The TXT value split into ≤255-character strings, as a DNS zone needs it. */
  values?: string[];
  required: boolean;
  status: RecordStatus;
  /** Why the last check did not find the record as planned (null or absent once it matched). */
  reason?: string | null;
}

export interface DomainWarmup {
  enabled: boolean;
  /** The UTC day (YYYY-MM-DD) it was enabled: day 1. */
  startedOn: string;
  /** Each day's cap, day 1 first; after the last day there is no cap. */
  schedule: number[];
}

/** Sender domains: their DKIM key (private half encrypted with APP_SECRET) and DNS records to publish. */
export const domains = pgTable(
  'domains',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    status: text('status').$type<DomainStatus>().notNull().default('PENDING'),
    dkimSelector: text('dkim_selector').notNull(),
    dkimPublicKey: text('dkim_public_key').notNull(),
    dkimPrivateKey: text('dkim_private_key').notNull(),
    records: jsonb('records').$type<DomainRecord[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, precision: 3 }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, precision: 3 }),
    /** When a verified domain lost verification (TEMPORARY_FAILURE); its mail is held for 72 h from here. */
    lapsedAt: timestamp('lapsed_at', { withTimezone: true, precision: 3 }),
    /** Mail to any address at this domain is received (inbound); only a verified domain may. */
    receiving: boolean('receiving').notNull().default(false),
    /** The most mail per hour this domain may send to each mailbox provider (`{gmail: 2000}`); absent: unlimited. */
    providerLimits: jsonb('provider_limits').$type<Partial<Record<string, number>>>(),
    /** A warm-up: the day it was enabled (day 1) and each day's cap; null when the domain is not warming up. */
    warmup: jsonb('warmup').$type<DomainWarmup>(),
    /** DMARC aggregate and TLS reports are asked for at this Herald's report addresses (rua). */
    reports: boolean('reports').notNull().default(false),
    /**
     * The secret part of the domain's report addresses (dmarc-<token>@, tls-<token>@ at INBOUND_MX_HOST): made
     * when reports are first turned on, kept when they are turned off and on again.
     */
    reportToken: text('report_token'),
  },
  (t) => [
    uniqueIndex('domains_project_domain_idx').on(t.projectId, t.domain),
    // One project at most holds a verified domain, but for the local sender (a .localhost name, outbox only), which
    // every project may have.
    uniqueIndex('domains_verified_idx')
      .on(t.domain)
      .where(sql`status IN ('VERIFIED', 'TEMPORARY_FAILURE') AND domain NOT LIKE '%.localhost'`),
    index('domains_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    index('domains_check_idx').on(t.status, t.lastCheckedAt),
    // The inbound listener's RCPT lookup: receiving domains by name.
    uniqueIndex('domains_report_token_idx').on(t.reportToken),
    index('domains_receiving_idx')
      .on(t.domain)
      .where(sql`receiving`),
  ],
);

/**
 * The latest blocklist lookups of a sender domain: its name and tracking host in the domain blocklists, the
 * instance's sending IPs in the IP blocklists. `listed` null: the lookup failed or the blocklist refused it.
 */
export const domainBlocklists = pgTable(
  'domain_blocklists',
  {
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    zone: text('zone').notNull(),
    /** The domain, host name or IP address looked up (an address as written, not reversed). */
    name: text('name').notNull(),
    kind: text('kind').$type<'domain' | 'ip'>().notNull(),
    listed: boolean('listed'),
    answer: text('answer'),
    /** When the name was last seen listed there, from the first lookup that found it; null when it is not. */
    listedSince: timestamp('listed_since', { withTimezone: true, precision: 3 }),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.zone, t.name] })],
);
