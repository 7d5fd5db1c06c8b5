// DNS blocklists (DNSBL): a name or an address looked up in a blocklist zone. An answer in 127.0.0.0/8 lists it,
// except 127.255.255.x, which blocklists give for queries they refuse (public resolvers, over quota); a lookup that
// fails or a refused query is "unknown" (listed: null), never "listed".
import ipaddr from 'ipaddr.js';
import type { DnsClient } from './dns.ts';

export interface BlocklistAnswer {
  zone: string;
  /** What was looked up: a domain, or an IP address as written (not reversed). */
  name: string;
  /** true: listed; false: not listed; null: the lookup failed or the blocklist refused to answer. */
  listed: boolean | null;
  /** The blocklist's answer (its reason code, 127.0.1.x for a domain on Spamhaus's DBL), when it gave one. */
  answer: string | null;
}

function listingOf(addresses: readonly string[]): { listed: boolean | null; answer: string | null } {
  const answer = addresses[0] ?? null;
  if (!answer) return { listed: false, answer: null };
  if (answer.startsWith('127.255.255.') || !answer.startsWith('127.')) return { listed: null, answer };
  return { listed: true, answer };
}

/** The name an IP address is looked up as, before the zone: reversed octets (IPv4) or nibbles (IPv6). */
export function dnsblQueryName(ip: string): string {
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.toByteArray().reverse().join('.');
  const hex = address
    .toByteArray()
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  return [...hex].reverse().join('.');
}

/** Looks a domain (`kind: 'domain'`) or an IP address up in one blocklist zone. */
export async function blocklistLookup(
  dns: DnsClient,
  zone: string,
  name: string,
  kind: 'domain' | 'ip' = 'domain',
): Promise<BlocklistAnswer> {
  const query = kind === 'ip' ? dnsblQueryName(name) : name;
  const result = await dns.lookup('A', `${query}.${zone}`);
  if (result.status === 'found') return { zone, name, ...listingOf(result.records) };
  if (result.status === 'nxdomain' || result.status === 'nodata') return { zone, name, listed: false, answer: null };
  return { zone, name, listed: null, answer: null };
}
