import {
  boolean,
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

/** The policy a DMARC report says the domain published (policy_published). */
export interface PublishedPolicy {
  p: string | null;
  sp: string | null;
  adkim: string | null;
  aspf: string | null;
  pct: number | null;
}

/**
 * DMARC aggregate reports (RFC 7489) received for a sender domain: one row per report (reporting organisation and
 * its report id, stored once), with the totals of every record in it.
 */
export const dmarcReports = pgTable(
  'dmarc_reports',
  {
    id: uuid('id').primaryKey(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    orgName: text('org_name').notNull(),
    reportId: text('report_id').notNull(),
    email: text('email'),
    beginAt: timestamp('begin_at', { withTimezone: true, precision: 3 }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, precision: 3 }).notNull(),
    policy: jsonb('policy').$type<PublishedPolicy>().notNull(),
    /** Messages the report counts (the sum of its records' counts) and those that passed DMARC. */
    messages: integer('messages').notNull(),
    passed: integer('passed').notNull(),
    /** The records in the report, and whether some were folded into one row of other sources (the row cap). */
    records: integer('records').notNull(),
    folded: boolean('folded').notNull().default(false),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dmarc_reports_domain_org_report_idx').on(t.domainId, t.orgName, t.reportId),
    index('dmarc_reports_domain_end_idx').on(t.domainId, t.endAt),
    index('dmarc_reports_received_idx').on(t.receivedAt),
  ],
);

/**
 * A report's records, aggregated by source IP and results (at most a few hundred rows per report: the rest are
 * folded into one row with no IP). `dkimOwn`: DKIM passed with a signature of the domain itself (d=).
 */
export const dmarcReportRows = pgTable(
  'dmarc_report_rows',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => dmarcReports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    sourceIp: text('source_ip'),
    count: integer('count').notNull(),
    disposition: text('disposition').notNull(),
    dkim: text('dkim').notNull(),
    spf: text('spf').notNull(),
    dkimOwn: boolean('dkim_own').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.position] })],
);

/** One policy of a TLS report and what it counted: successful and failed sessions, the failure details (capped). */
export interface TlsReportPolicy {
  policyType: string;
  policyDomain: string;
  mxHosts: string[];
  successful: number;
  failed: number;
  failures: {
    resultType: string;
    sendingMtaIp: string | null;
    receivingMxHostname: string | null;
    failedSessions: number;
    additionalInformation: string | null;
  }[];
}

/** TLS reports (RFC 8460) received for a sender domain, stored once per organisation and report id. */
export const tlsReports = pgTable(
  'tls_reports',
  {
    id: uuid('id').primaryKey(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    orgName: text('org_name').notNull(),
    reportId: text('report_id').notNull(),
    contact: text('contact'),
    beginAt: timestamp('begin_at', { withTimezone: true, precision: 3 }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, precision: 3 }).notNull(),
    successful: integer('successful').notNull(),
    failed: integer('failed').notNull(),
    policies: jsonb('policies').$type<TlsReportPolicy[]>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tls_reports_domain_org_report_idx').on(t.domainId, t.orgName, t.reportId),
    index('tls_reports_domain_end_idx').on(t.domainId, t.endAt),
    index('tls_reports_received_idx').on(t.receivedAt),
  ],
);

/** Report mail refused for a domain, counted by reason (too large, not a report, another domain's, …). */
export const reportRefusals = pgTable(
  'report_refusals',
  {
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    count: integer('count').notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.reason] })],
);
