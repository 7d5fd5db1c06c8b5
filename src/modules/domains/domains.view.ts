// A sender domain as the API shows it: its records and tracking host, and what it may send (provider limits, and
// the warm-up with today's day, cap and count).
import type { Executor } from '../../db/client.ts';
import { iso } from '../../lib/http.ts';
import { providerLimitsOf } from './domains.limits.ts';
import * as repo from './domains.repo.ts';
import { utcDay, warmupView } from './domains.warmup.ts';
import { listedNames } from './domains.blocklists.store.ts';

/** A domain as the API shows it. */
export type DomainView = ReturnType<typeof toDomainView>;

/** The API shape of a domain; `sentToday`: the mail counted against its warm-up today. */
export function toDomainView(row: repo.DomainRow, sentToday: number, now: Date, blocklisted: string[] = []) {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    records: row.records,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    verifiedAt: iso(row.verifiedAt),
    lastCheckedAt: iso(row.lastCheckedAt),
    receiving: row.receiving,
    trackingHost: row.records.find((record) => record.purpose === 'TRACKING')?.name ?? null,
    trackingVerified: verifiedTrackingHost(row) !== null,
    dmarcReports: row.reports,
    providerLimits: providerLimitsOf(row),
    warmup: warmupView(row.warmup, sentToday, now),
    blocklisted,
  };
}

/** The API shapes of domains, with what each warming one counted today (one query for them all). */
export async function viewDomains(db: Executor, rows: repo.DomainRow[]): Promise<DomainView[]> {
  const now = new Date();
  const warming = rows.filter((row) => row.warmup !== null).map((row) => row.id);
  const sent = await repo.findWarmupSent(db, warming, utcDay(now));
  const listed = await listedNames(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toDomainView(row, sent.get(row.id) ?? 0, now, listed.get(row.id) ?? []));
}

/** The API shape of one domain. */
export async function viewDomain(db: Executor, row: repo.DomainRow): Promise<DomainView> {
  return (await viewDomains(db, [row]))[0]!;
}

/** The domain's custom tracking host once its CNAME was found (null before, or when it has none). */
export function verifiedTrackingHost(row: Pick<repo.DomainRow, 'records'>): string | null {
  return row.records.find((record) => record.purpose === 'TRACKING' && record.status === 'VERIFIED')?.name ?? null;
}

/** The tracking host a domain's records name (verified or not), or null. */
export function trackingHostOf(row: Pick<repo.DomainRow, 'records'>): string | null {
  return row.records.find((record) => record.purpose === 'TRACKING')?.name ?? null;
}
