// The blocklist watch of sender domains: each verified domain and its tracking host in the domain blocklists, and the
// instance's sending IPs in the IP blocklists, every hour, when a domain becomes verified, and on demand. The latest
// answers are kept per domain; a name that becomes listed raises `domain.blocklisted`, one that is no longer listed
// `domain.delisted`. A lookup that fails is `listed: null`: it neither raises nor clears a listing.
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { domainBlocklists, domains } from '../../db/schema/index.ts';
import { iso, isoDate } from '../../lib/http.ts';
import { blocklistLookup, type BlocklistAnswer } from '../../net/dnsbl.ts';
import { v5 } from 'uuid';
import { definePoller } from '../../queue/poller.ts';
import { defineJob } from '../../queue/registry.ts';
import { emitWebhookEvents, type WebhookEvent } from '../webhooks/index.ts';
import type { DomainRow } from './domains.repo.ts';
import { requireDomain } from './domains.repo.ts';
import { trackingHostOf } from './domains.view.ts';
import { isLocalDomain } from './domains.local.ts';

type Listing = typeof domainBlocklists.$inferSelect;

export const blocklistEntrySchema = z
  .object({
    zone: z.string(),
    name: z.string().meta({ description: 'The domain, tracking host or sending IP looked up' }),
    kind: z.enum(['domain', 'ip']),
    listed: z.boolean().nullable().meta({ description: 'null: the lookup failed or the blocklist refused to answer' }),
    answer: z.string().nullable().meta({ description: "The blocklist's answer (its reason code) when it gave one" }),
    listedSince: isoDate.nullable(),
    checkedAt: isoDate,
  })
  .meta({ id: 'BlocklistEntry' });

const view = (row: Listing) => ({
  zone: row.zone,
  name: row.name,
  kind: row.kind,
  listed: row.listed,
  answer: row.answer,
  listedSince: row.listedSince ? iso(row.listedSince) : null,
  checkedAt: iso(row.checkedAt),
});

/** What one domain is looked up as: its name and tracking host in the domain zones, the sending IPs in the IP zones. */
function lookupsOf(ctx: AppContext, row: DomainRow): { zone: string; name: string; kind: 'domain' | 'ip' }[] {
  // A .localhost name exists only here: no blocklist is asked about it.
  const names = [row.domain, trackingHostOf(row)].filter(
    (name): name is string => name !== null && !isLocalDomain(name),
  );
  return [
    ...ctx.config.dnsblDomainZones.flatMap((zone) => names.map((name) => ({ zone, name, kind: 'domain' as const }))),
    ...ctx.config.dnsblIpZones.flatMap((zone) =>
      ctx.config.sendingIps.map((name) => ({ zone, name, kind: 'ip' as const })),
    ),
  ];
}

/** Listed at the last lookup that answered (a failed lookup since keeps `listedSince`). */
const wasListed = (row: Listing | undefined) => row !== undefined && row.listedSince !== null;

/** The webhook a change of listing raises: listed now and not before, or listed before and clearly not now. */
function transitionOf(
  before: Listing | undefined,
  now: BlocklistAnswer,
): 'domain.blocklisted' | 'domain.delisted' | null {
  if (now.listed === true && !wasListed(before)) return 'domain.blocklisted';
  if (now.listed === false && wasListed(before)) return 'domain.delisted';
  return null;
}

/** A domain's latest answers: domains before IPs, by zone and name. */
function listingsOf(db: Executor, domainId: string): Promise<Listing[]> {
  return db
    .select()
    .from(domainBlocklists)
    .where(eq(domainBlocklists.domainId, domainId))
    .orderBy(asc(domainBlocklists.kind), asc(domainBlocklists.zone), asc(domainBlocklists.name));
}

/** Looks the domain up in every blocklist now, keeps the answers, and raises the webhooks of what changed. */
export async function checkDomainBlocklists(ctx: AppContext, row: DomainRow): Promise<Listing[]> {
  const wanted = lookupsOf(ctx, row);
  const answers = await Promise.all(
    wanted.map(async (lookup) => ({
      ...lookup,
      ...(await blocklistLookup(ctx.dnsFresh, lookup.zone, lookup.name, lookup.kind)),
    })),
  );
  return ctx.db.transaction(async (tx) => {
    // The domain's rows, locked: two workers checking at once take turns, so a change raises its webhook once.
    await tx.execute(sql`SELECT id FROM ${domains} WHERE id = ${row.id} FOR UPDATE`);
    const before = new Map(
      (await tx.select().from(domainBlocklists).where(eq(domainBlocklists.domainId, row.id))).map((r) => [
        `${r.zone} ${r.name}`,
        r,
      ]),
    );
    await tx.delete(domainBlocklists).where(eq(domainBlocklists.domainId, row.id));
    const now = new Date();
    const events: WebhookEvent[] = [];
    const rows = answers.map((answer) => {
      const previous = before.get(`${answer.zone} ${answer.name}`);
      const type = transitionOf(previous, answer);
      if (type)
        events.push({
          projectId: row.projectId,
          type,
          data: { domainId: row.id, domain: row.domain, zone: answer.zone, name: answer.name, answer: answer.answer },
        });
      // A failed lookup keeps when the name was listed: it stays listed until a lookup says otherwise.
      const since = previous?.listedSince ?? null;
      const listedSince = answer.listed === true ? (since ?? now) : answer.listed === null ? since : null;
      return {
        domainId: row.id,
        projectId: row.projectId,
        zone: answer.zone,
        name: answer.name,
        kind: answer.kind,
        listed: answer.listed,
        answer: answer.answer,
        listedSince,
        checkedAt: now,
      };
    });
    if (rows.length > 0) await tx.insert(domainBlocklists).values(rows);
    await emitWebhookEvents(tx, events);
    return listingsOf(tx, row.id);
  });
}

/** GET /domains/{id}/blocklists: the latest answers (none before the first check). */
export async function listDomainBlocklists(opts: { db: Executor; projectId: string; id: string }) {
  const row = await requireDomain(opts);
  return (await listingsOf(opts.db, row.id)).map(view);
}

/** POST /domains/{id}/blocklists/check: every lookup of the domain now, whatever its status. */
export async function checkBlocklistsNow(opts: { ctx: AppContext; projectId: string; id: string }) {
  const row = await requireDomain({ db: opts.ctx.db, projectId: opts.projectId, id: opts.id });
  return (await checkDomainBlocklists(opts.ctx, row)).map(view);
}

/**
 * Every hour (and for one domain when it becomes verified): the blocklist lookups of verified domains. One run at a
 * time across every worker; a domain whose lookups fail is tried at the next run.
 */
export const blocklistsJob = defineJob({
  name: 'domains-blocklists',
  schema: z.object({ domainId: z.string().optional() }),
  cron: '0 * * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(payload, ctx: AppContext) {
    const rows = await ctx.db
      .select()
      .from(domains)
      .where(and(eq(domains.status, 'VERIFIED'), payload.domainId ? eq(domains.id, payload.domainId) : undefined));
    for (const row of rows) {
      try {
        await checkDomainBlocklists(ctx, row as DomainRow);
      } catch (error) {
        ctx.logger.warn({ err: error, domain: row.domain }, 'blocklist check failed');
      }
    }
  },
});

/** The job id of the hour's start-up run: the same in every worker, so the run is queued once an hour. */
export function startRunId(now: Date): string {
  return v5(`domains-blocklists ${now.toISOString().slice(0, 13)}`, v5.URL);
}

/**
 * When a worker starts (and hourly while it runs): a lookup run, queued once per hour whichever worker asks first,
 * so that a new installation, or one that was down at the top of the hour, need not wait for the next hour.
 */
export const blocklistsAtStart = definePoller({
  name: 'domains-blocklists-start',
  intervalMs: 60 * 60 * 1000,
  async run(ctx: AppContext) {
    await ctx.queue.enqueue(blocklistsJob, {}, { id: startRunId(new Date()) });
    return false;
  },
});
