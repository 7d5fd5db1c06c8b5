// What DNS tells of a message's domains: whether a link domain is on a domain blocklist (DNSBL), and whether the
// sender domain publishes a DMARC policy. A lookup that fails is "unknown", never "listed" or "missing".
import type { DnsClient } from '../../net/dns.ts';
import { blocklistLookup, type BlocklistAnswer } from '../../net/dnsbl.ts';

/** Names asked of each zone per check, at most: a message with hundreds of link domains asks about the first ones. */
export const MAX_BLOCKLIST_NAMES = 20;

/** The domain a blocklist lists for a host: the host without `www.`, and its parent domain when it has one. */
export function blocklistNames(host: string): string[] {
  const bare = host.replace(/^www\./, '');
  const labels = bare.split('.');
  const parent = labels.length > 2 ? labels.slice(-2).join('.') : null;
  return parent && parent !== bare ? [bare, parent] : [bare];
}

/** Every name of `hosts` looked up in every zone (at most MAX_BLOCKLIST_NAMES names), in parallel. */
export async function blocklistAnswers(dns: DnsClient, zones: string[], hosts: string[]): Promise<BlocklistAnswer[]> {
  const names = [...new Set(hosts.flatMap(blocklistNames))].slice(0, MAX_BLOCKLIST_NAMES);
  return Promise.all(zones.flatMap((zone) => names.map((name) => blocklistLookup(dns, zone, name))));
}

/**
 * Whether the domain (or, without a record of its own, its parent domain: the last two labels, a simplification of
 * the organisational domain) publishes a DMARC record: `found`, `missing`, or `unknown` when DNS did not answer.
 */
export async function dmarcRecordOf(dns: DnsClient, domain: string): Promise<'found' | 'missing' | 'unknown'> {
  const labels = domain.toLowerCase().split('.');
  const names = [domain, ...(labels.length > 2 ? [labels.slice(-2).join('.')] : [])];
  for (const name of names) {
    const result = await dns.lookup('TXT', `_dmarc.${name}`);
    if (result.status === 'found') {
      if (result.records.some((record) => /^v=DMARC1\b/i.test(record.join('').trim()))) return 'found';
      continue;
    }
    if (result.status !== 'nxdomain' && result.status !== 'nodata') return 'unknown';
  }
  return 'missing';
}
