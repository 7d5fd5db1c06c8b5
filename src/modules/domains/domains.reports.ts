// DMARC aggregate and TLS reports of sender domains: mail to a domain's report addresses (dmarc-<token>@ and
// tls-<token>@ at INBOUND_MX_HOST) is read as reports, each stored once per organisation and report id, and only for
// the domain the token belongs to. What is refused is counted per domain (GET /domains/{id}/dmarc `refused`) and
// in the metrics (herald_reports_total). Reports are kept REPORT_RETENTION_DAYS.
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { Counter, type Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { dmarcReportRows, dmarcReports, reportRefusals, tlsReports } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { iso } from '../../lib/http.ts';
import { inBatches, retentionCutoff } from '../../lib/retention.ts';
import { defineJob } from '../../queue/registry.ts';
import * as repo from './domains.repo.ts';
import type { DmarcReport, ReportsRead, TlsReport } from '../../mail/receive-pool/index.ts';
import { passedDmarc, ReportRefused } from '../../mail/receive-pool/report-files.ts';

/** Reports are kept this long after they arrive (a year and a month: a year's trend with its first month). */
export const REPORT_RETENTION_DAYS = 400;
/** The most sources GET /domains/{id}/dmarc lists (failures from sources not ours first). */
const MAX_SOURCES = 500;

const ADDRESS = /^(dmarc|tls)-([0-9a-f]{32})@(.+)$/i;

const metricsByRegistry = new WeakMap<Registry, Counter>();
function reportCounter(registry: Registry): Counter {
  let counter = metricsByRegistry.get(registry);
  if (!counter) {
    counter = new Counter({
      name: 'herald_reports_total',
      help: 'Report mail received at the report addresses, by outcome (stored, duplicate, or why it was refused)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    metricsByRegistry.set(registry, counter);
  }
  return counter;
}

/** Counts a refusal: in the metrics, and on the domain when the address named one. */
async function countRefusal(ctx: AppContext, reason: string, domainId: string | null): Promise<void> {
  reportCounter(ctx.metrics).inc({ outcome: reason });
  if (!domainId) return;
  await ctx.db
    .insert(reportRefusals)
    .values({ domainId, reason, count: 1 })
    .onConflictDoUpdate({
      target: [reportRefusals.domainId, reportRefusals.reason],
      set: { count: sql`${reportRefusals.count} + 1`, lastAt: sql`now()` },
    });
}

/** Whether an address has the shape of a report address at this Herald (dmarc-<token>@ or tls-<token>@ mxHost). */
export function isReportAddress(ctx: AppContext, address: string): boolean {
  const match = ADDRESS.exec(address);
  return match !== null && match[3]!.toLowerCase() === ctx.config.inbound.mxHost;
}

/**
 * Whether reports are taken at this report address: its token names a domain whose reports are on. An unknown
 * token is counted (`unknown_token`).
 */
export async function acceptsReportAddress(opts: { ctx: AppContext; address: string }): Promise<boolean> {
  const match = ADDRESS.exec(opts.address);
  const row = match ? await repo.findDomainByReportToken(opts.ctx.db, match[2]!.toLowerCase()) : null;
  if (!row) await countRefusal(opts.ctx, 'unknown_token', null);
  return row !== null;
}

/** Stores a DMARC report once (its organisation and report id): true when stored, false when it was already. */
async function storeDmarc(tx: Executor, domain: repo.DomainRow, report: DmarcReport): Promise<boolean> {
  const id = newId();
  const inserted = await tx
    .insert(dmarcReports)
    .values({
      id,
      domainId: domain.id,
      projectId: domain.projectId,
      orgName: report.orgName,
      reportId: report.reportId,
      email: report.email,
      beginAt: report.beginAt,
      endAt: report.endAt,
      policy: report.policy,
      messages: report.messages,
      passed: report.passed,
      records: report.records,
      folded: report.folded,
    })
    .onConflictDoNothing()
    .returning({ id: dmarcReports.id });
  if (inserted.length === 0) return false;
  if (report.rows.length > 0)
    await tx.insert(dmarcReportRows).values(report.rows.map((row, position) => ({ ...row, reportId: id, position })));
  return true;
}

/** Stores a TLS report once (its organisation and report id): true when stored, false when it was already. */
async function storeTls(tx: Executor, domain: repo.DomainRow, report: TlsReport): Promise<boolean> {
  const inserted = await tx
    .insert(tlsReports)
    .values({
      id: newId(),
      domainId: domain.id,
      projectId: domain.projectId,
      orgName: report.orgName,
      reportId: report.reportId,
      contact: report.contact,
      beginAt: report.beginAt,
      endAt: report.endAt,
      successful: report.successful,
      failed: report.failed,
      policies: report.policies,
    })
    .onConflictDoNothing()
    .returning({ id: tlsReports.id });
  return inserted.length > 0;
}

/**
 * Receives the reports of a report mail (read on a receive thread) for its report addresses: stored only when each
 * is about the domain of the address's token; a refusal stores nothing, is counted, and throws ReportRefused.
 */
export async function receiveReports(opts: {
  ctx: AppContext;
  recipients: string[];
  reports: ReportsRead;
}): Promise<{ stored: number; duplicates: number }> {
  const { ctx } = opts;
  const tokens = [
    ...new Set(opts.recipients.map((a) => ADDRESS.exec(a)?.[2]?.toLowerCase()).filter((t) => t !== undefined)),
  ];
  const domains = (await Promise.all(tokens.map((t) => repo.findDomainByReportToken(ctx.db, t)))).filter(
    (row): row is repo.DomainRow => row !== null,
  );
  const found = opts.reports;
  if (!found.ok) {
    for (const d of domains) await countRefusal(ctx, found.reason, d.id);
    throw new ReportRefused(found.reason, found.message);
  }
  let stored = 0;
  let duplicates = 0;
  for (const domain of domains) {
    const foreign = [...found.dmarc.map((r) => r.domain), ...found.tls.flatMap((r) => r.domains)].find(
      (name) => name !== domain.domain,
    );
    if (foreign !== undefined) {
      await countRefusal(ctx, 'wrong_domain', domain.id);
      throw new ReportRefused(
        'wrong_domain',
        `a report about ${foreign || 'no domain'} sent to ${domain.domain}'s address`,
      );
    }
    await ctx.db.transaction(async (tx) => {
      const outcomes: boolean[] = [];
      for (const report of found.dmarc) outcomes.push(await storeDmarc(tx, domain, report));
      for (const report of found.tls) outcomes.push(await storeTls(tx, domain, report));
      stored += outcomes.filter(Boolean).length;
      duplicates += outcomes.filter((kept) => !kept).length;
    });
  }
  if (stored > 0) reportCounter(ctx.metrics).inc({ outcome: 'stored' }, stored);
  if (duplicates > 0) reportCounter(ctx.metrics).inc({ outcome: 'duplicate' }, duplicates);
  return { stored, duplicates };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export const reportPeriodQuery = z.object({
  from: z.iso
    .datetime({ offset: true })
    .refine((v) => /^(19[7-9]\d|[2-9]\d{3})/.test(v), { error: 'must be a time from 1970 on' })
    .optional()
    .meta({ description: 'Reports whose period ends at or after this time (ISO 8601); default: 30 days ago' }),
  to: z.iso
    .datetime({ offset: true })
    .refine((v) => /^(19[7-9]\d|[2-9]\d{3})/.test(v), { error: 'must be a time from 1970 on' })
    .optional()
    .meta({ description: 'Reports whose period ends before this time (ISO 8601); default: now' }),
});

export const dmarcSummarySchema = z
  .object({
    reports: z.number().int().meta({ description: 'DMARC reports received for the period' }),
    messages: z.number().int().meta({ description: 'Messages the reports count' }),
    passRate: z
      .number()
      .nullable()
      .meta({ description: 'Messages that passed DMARC (aligned DKIM or SPF) / messages; null without messages' }),
    days: z.array(z.object({ date: z.string(), messages: z.number().int(), passed: z.number().int() })).meta({
      description: "Each UTC day's messages and those that passed (by the day a report's period begins)",
    }),
    sources: z
      .array(
        z.object({
          ip: z.string().nullable().meta({ description: 'null: sources past the per-report row cap, folded' }),
          count: z.number().int(),
          dkim: z.string(),
          spf: z.string(),
          disposition: z.string(),
          ours: z.boolean().meta({ description: 'One of SENDING_IPS, or DKIM passed with the domain’s own key' }),
        }),
      )
      .meta({ description: 'Failures from sources not ours first, then by messages' }),
    organisations: z
      .array(z.object({ name: z.string(), reports: z.number().int(), messages: z.number().int() }))
      .meta({ description: 'Who sent the reports' }),
    refused: z
      .record(z.string(), z.number().int())
      .meta({ description: 'Report mail refused for this domain, by reason (since the domain was added)' }),
  })
  .meta({ id: 'DmarcSummary' });

export const tlsReportSchema = z
  .object({
    id: z.string(),
    organisation: z.string(),
    reportId: z.string(),
    contact: z.string().nullable(),
    startAt: z.string(),
    endAt: z.string(),
    successful: z.number().int(),
    failed: z.number().int(),
    policies: z.array(
      z.object({
        policyType: z.string(),
        policyDomain: z.string(),
        mxHosts: z.array(z.string()),
        successful: z.number().int(),
        failed: z.number().int(),
        failures: z.array(
          z.object({
            resultType: z.string(),
            sendingMtaIp: z.string().nullable(),
            receivingMxHostname: z.string().nullable(),
            failedSessions: z.number().int(),
            additionalInformation: z.string().nullable(),
          }),
        ),
      }),
    ),
    receivedAt: z.string(),
  })
  .meta({ id: 'TlsReport' });

const DAY_MS = 24 * 60 * 60 * 1000;

function periodOf(query: { from?: string | undefined; to?: string | undefined }) {
  const to = query.to ? new Date(query.to) : new Date();
  return { from: query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY_MS), to };
}

/** GET /domains/{id}/dmarc: the period's reports summed up, per day, by source, and what was refused. */
export async function dmarcSummary(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  from?: string | undefined;
  to?: string | undefined;
}): Promise<z.infer<typeof dmarcSummarySchema>> {
  const { db } = opts.ctx;
  const domain = await repo.requireDomain({ db, projectId: opts.projectId, id: opts.id });
  const { from, to } = periodOf(opts);
  const inPeriod = and(eq(dmarcReports.domainId, domain.id), gte(dmarcReports.endAt, from), lt(dmarcReports.endAt, to));
  const day = sql<string>`to_char(${dmarcReports.beginAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const days = await db
    .select({
      date: day,
      reports: sql<string>`count(*)`,
      messages: sql<string>`coalesce(sum(${dmarcReports.messages}), 0)`,
      passed: sql<string>`coalesce(sum(${dmarcReports.passed}), 0)`,
    })
    .from(dmarcReports)
    .where(inPeriod)
    .groupBy(day)
    .orderBy(asc(day));
  const organisations = await db
    .select({
      name: dmarcReports.orgName,
      reports: sql<string>`count(*)`,
      messages: sql<string>`coalesce(sum(${dmarcReports.messages}), 0)`,
    })
    .from(dmarcReports)
    .where(inPeriod)
    .groupBy(dmarcReports.orgName)
    .orderBy(desc(sql`count(*)`))
    .limit(100);
  const sources = await db
    .select({
      ip: dmarcReportRows.sourceIp,
      dkim: dmarcReportRows.dkim,
      spf: dmarcReportRows.spf,
      disposition: dmarcReportRows.disposition,
      dkimOwn: dmarcReportRows.dkimOwn,
      count: sql<string>`sum(${dmarcReportRows.count})`,
    })
    .from(dmarcReportRows)
    .innerJoin(dmarcReports, eq(dmarcReports.id, dmarcReportRows.reportId))
    .where(inPeriod)
    .groupBy(
      dmarcReportRows.sourceIp,
      dmarcReportRows.dkim,
      dmarcReportRows.spf,
      dmarcReportRows.disposition,
      dmarcReportRows.dkimOwn,
    );
  const refused = await db
    .select({ reason: reportRefusals.reason, count: reportRefusals.count })
    .from(reportRefusals)
    .where(eq(reportRefusals.domainId, domain.id));
  const sendingIps = new Set(opts.ctx.config.sendingIps);
  const listed = sources
    .map((s) => ({
      ip: s.ip,
      count: Number(s.count),
      dkim: s.dkim,
      spf: s.spf,
      disposition: s.disposition,
      ours: (s.ip !== null && sendingIps.has(s.ip)) || s.dkimOwn,
    }))
    // Failures from sources that are not ours first: spoofing, or a service sending for the domain unannounced.
    .sort((a, b) => rank(a) - rank(b) || b.count - a.count || String(a.ip).localeCompare(String(b.ip)))
    .slice(0, MAX_SOURCES);
  const messages = days.reduce((n, d) => n + Number(d.messages), 0);
  const passed = days.reduce((n, d) => n + Number(d.passed), 0);
  return {
    reports: days.reduce((n, d) => n + Number(d.reports), 0),
    messages,
    passRate: messages === 0 ? null : passed / messages,
    days: days.map((d) => ({ date: d.date, messages: Number(d.messages), passed: Number(d.passed) })),
    sources: listed,
    organisations: organisations.map((o) => ({
      name: o.name,
      reports: Number(o.reports),
      messages: Number(o.messages),
    })),
    refused: Object.fromEntries(refused.map((r) => [r.reason, r.count])),
  };
}

/** 0: failed and not ours, 1: failed and ours, 2: passed. */
const rank = (source: { dkim: string; spf: string; ours: boolean }) => (passedDmarc(source) ? 2 : source.ours ? 1 : 0);

/** GET /domains/{id}/tls-reports: the period's TLS reports, the latest first (at most 200). */
export async function listTlsReports(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  from?: string | undefined;
  to?: string | undefined;
}): Promise<z.infer<typeof tlsReportSchema>[]> {
  const { db } = opts.ctx;
  const domain = await repo.requireDomain({ db, projectId: opts.projectId, id: opts.id });
  const { from, to } = periodOf(opts);
  const rows = await db
    .select()
    .from(tlsReports)
    .where(and(eq(tlsReports.domainId, domain.id), gte(tlsReports.endAt, from), lt(tlsReports.endAt, to)))
    .orderBy(desc(tlsReports.endAt), desc(tlsReports.id))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    organisation: r.orgName,
    reportId: r.reportId,
    contact: r.contact,
    startAt: iso(r.beginAt),
    endAt: iso(r.endAt),
    successful: r.successful,
    failed: r.failed,
    policies: r.policies,
    receivedAt: iso(r.receivedAt),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Retention

/** Deletes reports received more than `days` ago, in small batches; answers how many. */
export async function expireReports(opts: { db: Executor; days: number; now?: Date }): Promise<number> {
  const cutoff = retentionCutoff(opts.days, opts.now);
  const expireDmarc = async (size: number) => {
    const due = opts.db.select({ id: dmarcReports.id }).from(dmarcReports).where(lt(dmarcReports.receivedAt, cutoff));
    const gone = await opts.db
      .delete(dmarcReports)
      .where(inArray(dmarcReports.id, due.limit(size)))
      .returning({ id: dmarcReports.id });
    return gone.length;
  };
  const expireTls = async (size: number) => {
    const due = opts.db.select({ id: tlsReports.id }).from(tlsReports).where(lt(tlsReports.receivedAt, cutoff));
    const gone = await opts.db
      .delete(tlsReports)
      .where(inArray(tlsReports.id, due.limit(size)))
      .returning({ id: tlsReports.id });
    return gone.length;
  };
  return (await inBatches(500, expireDmarc)) + (await inBatches(500, expireTls));
}

/** Daily: reports older than REPORT_RETENTION_DAYS are deleted (with their rows). */
export const reportRetentionJob = defineJob({
  name: 'domains-reports-retention',
  schema: z.object({}),
  cron: '41 3 * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    const expired = await expireReports({ db: ctx.db, days: REPORT_RETENTION_DAYS });
    if (expired > 0) ctx.logger.info({ expired }, 'DMARC and TLS reports expired');
  },
});
