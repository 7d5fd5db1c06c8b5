// What the blocklist lookups found listed, read for the domains' views.
import { and, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { domainBlocklists } from '../../db/schema/index.ts';

/**
 * The names each domain has listed ("name on zone"), by domain id: listed at the last lookup that answered (one
 * that failed since clears nothing).
 */
export async function listedNames(db: Executor, domainIds: string[]): Promise<Map<string, string[]>> {
  const byDomain = new Map<string, string[]>();
  if (domainIds.length === 0) return byDomain;
  const rows = await db
    .select({ domainId: domainBlocklists.domainId, zone: domainBlocklists.zone, name: domainBlocklists.name })
    .from(domainBlocklists)
    .where(and(inArray(domainBlocklists.domainId, domainIds), isNotNull(domainBlocklists.listedSince)));
  for (const r of rows) byDomain.set(r.domainId, [...(byDomain.get(r.domainId) ?? []), `${r.name} on ${r.zone}`]);
  return byDomain;
}
