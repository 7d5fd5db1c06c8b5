// What a sender domain may send: the most mail per hour to each mailbox provider, and its warm-up. The sending engine
// enforces both; the domain stores them and shows them.
import type { Executor } from '../../db/client.ts';
import type { MailboxProvider } from '../../db/schema/transports.ts';
import { notFound } from '../../lib/errors.ts';
import { MAILBOX_PROVIDERS } from '../../mail/providers.ts';
import * as repo from './domains.repo.ts';
import { changedWarmup, type WarmupChange } from './domains.warmup.ts';

/** A PATCH of the provider limits: a number sets a provider's limit, null removes it, an absent one is kept. */
export type ProviderLimitsChange = Partial<Record<MailboxProvider, number | null | undefined>>;

/** A domain's limits per provider as shown: the providers that have one, in the providers' order. */
export function providerLimitsOf(
  row: Pick<repo.DomainRow, 'providerLimits'>,
): Partial<Record<MailboxProvider, number>> {
  const stored = row.providerLimits ?? {};
  const limits: Partial<Record<MailboxProvider, number>> = {};
  for (const provider of MAILBOX_PROVIDERS) {
    const limit = stored[provider];
    if (typeof limit === 'number') limits[provider] = limit;
  }
  return limits;
}

function changedLimits(row: repo.DomainRow, change: ProviderLimitsChange): Partial<Record<string, number>> | null {
  const limits: Partial<Record<string, number>> = providerLimitsOf(row);
  for (const provider of MAILBOX_PROVIDERS) {
    const value = change[provider];
    if (value === null) delete limits[provider];
    else if (value !== undefined) limits[provider] = value;
  }
  return Object.keys(limits).length > 0 ? limits : null;
}

/**
 * Applies a change of provider limits and warm-up to the domain, computed from the row locked in the caller's
 * transaction (two changes at once cannot lose one another's), and tells the sending workers when either changed.
 */
export async function saveSendingLimits(
  tx: Executor,
  id: string,
  change: { providerLimits?: ProviderLimitsChange | undefined; warmup?: WarmupChange | undefined },
  now = new Date(),
): Promise<repo.DomainRow> {
  const row = await repo.lockDomain(tx, id);
  if (!row) throw notFound('Domain');
  const providerLimits = change.providerLimits ? changedLimits(row, change.providerLimits) : row.providerLimits;
  const warmup = change.warmup ? changedWarmup(row.warmup, change.warmup, now) : row.warmup;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (same(providerLimits, row.providerLimits) && same(warmup, row.warmup)) return row;
  const saved = await repo.saveSendingLimits(tx, id, { providerLimits, warmup });
  if (!saved) throw notFound('Domain');
  // The sending workers keep domains in a cache; the table's trigger does not announce these columns.
  await repo.announceDomainChange(tx);
  return saved;
}
