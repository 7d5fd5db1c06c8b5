import { and, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { findOr404 } from '../../lib/errors.ts';
import { domains, type DomainRecord, type DomainStatus, type DomainWarmup } from '../../db/schema/domains.ts';
import { warmupDays } from '../../db/schema/transports.ts';
import { listPage } from '../../db/list-page.ts';
import { DOMAIN_CHANGES_CHANNEL } from './domains.changes.ts';

export type DomainRow = typeof domains.$inferSelect;

/** Stores a new domain with its key pair. */
export async function insertDomain(db: Executor, row: typeof domains.$inferInsert): Promise<DomainRow> {
  const [created] = await db.insert(domains).values(row).returning();
  return created!;
}

export async function findDomain(db: Executor, projectId: string, id: string): Promise<DomainRow | null> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.projectId, projectId), eq(domains.id, id)));
  return row ?? null;
}

/** The project's domain with this id, or the 404 of a domain (a foreign or malformed id alike). */
export function requireDomain(opts: { db: Executor; projectId: string; id: string }): Promise<DomainRow> {
  return findOr404('Domain', opts.id, () => findDomain(opts.db, opts.projectId, opts.id));
}

export async function findDomainByName(db: Executor, projectId: string, domain: string): Promise<DomainRow | null> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.projectId, projectId), eq(domains.domain, domain)));
  return row ?? null;
}

/** Another project's verified hold on a domain, if any. */
export async function findVerifiedElsewhere(
  db: Executor,
  projectId: string,
  domain: string,
): Promise<DomainRow | null> {
  const [row] = await db
    .select()
    .from(domains)
    .where(
      and(
        eq(domains.domain, domain),
        inArray(domains.status, ['VERIFIED', 'TEMPORARY_FAILURE']),
        sql`${domains.projectId} <> ${projectId}`,
      ),
    );
  return row ?? null;
}

/** The project's verified domain among `names` (the sender's domain and its parents), most specific first. */
export async function findVerifiedDomain(db: Executor, projectId: string, names: string[]): Promise<DomainRow | null> {
  if (names.length === 0) return null;
  const rows = await db
    .select()
    .from(domains)
    .where(and(eq(domains.projectId, projectId), eq(domains.status, 'VERIFIED'), inArray(domains.domain, names)));
  rows.sort((a, b) => b.domain.length - a.domain.length);
  return rows[0] ?? null;
}

export async function listDomains(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined; status?: DomainStatus | undefined },
) {
  const filters: (SQL | undefined)[] = [
    eq(domains.projectId, projectId),
    opts.status ? eq(domains.status, opts.status) : undefined,
  ];
  return listPage(db, domains, and(...filters), opts);
}

/** Stores a check's outcome; `verifiedAt` is set on the first verification only. */
export async function saveCheck(
  db: Executor,
  id: string,
  outcome: { status: DomainStatus; records: DomainRecord[] },
): Promise<DomainRow | null> {
  const [row] = await db
    .update(domains)
    .set({
      status: outcome.status,
      records: outcome.records,
      lastCheckedAt: sql`now()`,
      updatedAt: sql`now()`,
      verifiedAt: outcome.status === 'VERIFIED' ? sql`coalesce(${domains.verifiedAt}, now())` : domains.verifiedAt,
      // The 72 h grace of a lapsed domain's held mail counts from the first failed check.
      lapsedAt:
        outcome.status === 'TEMPORARY_FAILURE'
          ? sql`coalesce(${domains.lapsedAt}, now())`
          : outcome.status === 'VERIFIED'
            ? null
            : domains.lapsedAt,
    })
    .where(eq(domains.id, id))
    .returning();
  return row ?? null;
}

/** Turns receiving on or off with its records; on only while the domain is VERIFIED (null otherwise). */
export async function saveReceiving(
  db: Executor,
  id: string,
  change: { receiving: boolean; records: DomainRecord[] },
): Promise<DomainRow | null> {
  const [row] = await db
    .update(domains)
    .set({ receiving: change.receiving, records: change.records, updatedAt: sql`now()` })
    .where(and(eq(domains.id, id), change.receiving ? eq(domains.status, 'VERIFIED') : undefined))
    .returning();
  return row ?? null;
}

/** Turns reports on or off with the records that ask for them and the domain's report token. */
export async function saveReports(
  db: Executor,
  id: string,
  change: { reports: boolean; reportToken: string; records: DomainRecord[] },
): Promise<DomainRow | null> {
  const [row] = await db
    .update(domains)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(domains.id, id))
    .returning();
  return row ?? null;
}

/** The domain whose reports come to the address with this token, while its reports are on. */
export async function findDomainByReportToken(db: Executor, token: string): Promise<DomainRow | null> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.reportToken, token), eq(domains.reports, true)));
  return row ?? null;
}

/** The domain, locked until the transaction ends: a change computed from it cannot be lost to another one. */
export async function lockDomain(db: Executor, id: string): Promise<DomainRow | null> {
  const [row] = await db.select().from(domains).where(eq(domains.id, id)).for('update');
  return row ?? null;
}

/** Replaces a domain's provider limits and warm-up. */
export async function saveSendingLimits(
  db: Executor,
  id: string,
  change: { providerLimits: Partial<Record<string, number>> | null; warmup: DomainWarmup | null },
): Promise<DomainRow | null> {
  const [row] = await db
    .update(domains)
    .set({ providerLimits: change.providerLimits, warmup: change.warmup, updatedAt: sql`now()` })
    .where(eq(domains.id, id))
    .returning();
  return row ?? null;
}

/** The mail each of these domains counted against a warm-up on a UTC day (the sending engine keeps the count). */
export async function findWarmupSent(db: Executor, domainIds: string[], day: string): Promise<Map<string, number>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .select({ domainId: warmupDays.domainId, sent: warmupDays.sent })
    .from(warmupDays)
    .where(and(inArray(warmupDays.domainId, domainIds), eq(warmupDays.day, day)));
  return new Map(rows.map((r) => [r.domainId, r.sent]));
}

/** Replaces a domain's records (a tracking host set or removed). */
export async function saveRecords(db: Executor, id: string, records: DomainRecord[]): Promise<DomainRow | null> {
  const [row] = await db
    .update(domains)
    .set({ records, updatedAt: sql`now()` })
    .where(eq(domains.id, id))
    .returning();
  return row ?? null;
}

/**
 * Tells every process's signing-domain cache that a domain changed in a way the table's trigger does not see (its
 * records: a tracking host found or removed). Inside a transaction it is sent on commit.
 */
export async function announceDomainChange(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${DOMAIN_CHANGES_CHANNEL}, '')`);
}

/** Verified domains with receiving on among `names` (lower-case). */
export async function findReceivingDomains(db: Executor, names: string[]): Promise<DomainRow[]> {
  if (names.length === 0) return [];
  return db
    .select()
    .from(domains)
    .where(and(eq(domains.receiving, true), eq(domains.status, 'VERIFIED'), inArray(domains.domain, names)));
}

/** Deletes a domain of the project. */
export async function deleteDomain(db: Executor, projectId: string, id: string): Promise<{ domain: string } | null> {
  const [row] = await db
    .delete(domains)
    .where(and(eq(domains.projectId, projectId), eq(domains.id, id)))
    .returning({ domain: domains.domain });
  return row ?? null;
}

/** Domains due for a background check: pending ones every few minutes, verified ones daily. */
export async function findDomainsDue(db: Executor, limit: number): Promise<DomainRow[]> {
  const fiveMinutesAgo = sql`now() - interval '5 minutes'`;
  const dayAgo = sql`now() - interval '1 day'`;
  return db
    .select()
    .from(domains)
    .where(
      or(
        and(
          inArray(domains.status, ['PENDING', 'TEMPORARY_FAILURE']),
          or(isNull(domains.lastCheckedAt), lt(domains.lastCheckedAt, fiveMinutesAgo)),
        ),
        and(eq(domains.status, 'VERIFIED'), or(isNull(domains.lastCheckedAt), lt(domains.lastCheckedAt, dayAgo))),
      ),
    )
    .orderBy(domains.lastCheckedAt)
    .limit(limit);
}

/** The project's domains (any status) among `names`, most specific first: the signing key of a queued message. */
export async function findDomainsFor(db: Executor, projectId: string, names: string[]): Promise<DomainRow[]> {
  if (names.length === 0) return [];
  const rows = await db
    .select()
    .from(domains)
    .where(and(eq(domains.projectId, projectId), inArray(domains.domain, names)));
  return rows.sort((a, b) => b.domain.length - a.domain.length);
}

/** Verified domains of any project among `names` (a domain is verified in one project at most), most specific first. */
export async function findVerifiedDomainsNamed(db: Executor, names: string[]): Promise<DomainRow[]> {
  if (names.length === 0) return [];
  const rows = await db
    .select()
    .from(domains)
    .where(and(inArray(domains.domain, names), inArray(domains.status, ['VERIFIED', 'TEMPORARY_FAILURE'])));
  return rows.sort((a, b) => b.domain.length - a.domain.length);
}
