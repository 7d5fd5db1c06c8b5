// Which addresses an outbound request (workflow WEBHOOK steps, webhooks out) may reach: only global
// unicast. Loopback, private, link-local, CGNAT, unique-local, multicast, reserved and the cloud metadata
// addresses are refused, and so is every IPv6 form that embeds an IPv4 address (mapped, compatible,
// translated, NAT64, 6to4, Teredo) whatever that address is: none of them is needed to reach a public
// receiver, and each can be routed to the IPv4 address inside it.
import ipaddr from 'ipaddr.js';

/** Cloud metadata endpoints, named in the refusal (each is also outside global unicast). */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);

/** IPv6 ranges that carry an IPv4 address, by the name ipaddr.js gives them (IPv4-compatible has none). */
const EMBEDDED_IPV4: Record<string, string> = {
  ipv4Mapped: 'an IPv4-mapped IPv6 address (::ffff:0:0/96)',
  ipv4Compatible: 'an IPv4-compatible IPv6 address (::/96)',
  rfc6145: 'an IPv4-translated IPv6 address (::ffff:0:0:0/96)',
  rfc6052: 'a NAT64 address (64:ff9b::/96, 64:ff9b:1::/48)',
  '6to4': 'a 6to4 address (2002::/16)',
  teredo: 'a Teredo address (2001::/32)',
};

/** IPv4-compatible addresses (::a.b.c.d, deprecated by RFC 4291): ipaddr.js files them under unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** Where every global unicast IPv6 address is allocated from (RFC 4291, IANA); the rest is not public. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export type AddressVerdict =
  | { allowed: true; address: string; family: 4 | 6 }
  | { allowed: false; address: string; family: 4 | 6; reason: string };

/**
 * Parses an IP literal in any form a URL or resolver may carry: dotted, decimal (`2130706433`), octal
 * (`0177.0.0.1`), hex (`0x7f.0.0.1`), short (`127.1`), IPv6 with or without brackets. Null when it is none.
 */
export function parseIpLiteral(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (bare.includes('%')) return null; // zone ids name a local interface: never a public target
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

function rangeName(range: string): string {
  const names: Record<string, string> = {
    unspecified: 'an unspecified address (0.0.0.0/8, ::)',
    loopback: 'a loopback address',
    private: 'a private address (10/8, 172.16/12, 192.168/16)',
    linkLocal: 'a link-local address',
    carrierGradeNat: 'a carrier-grade NAT address (100.64/10)',
    uniqueLocal: 'a unique-local address (fc00::/7)',
    multicast: 'a multicast address',
    broadcast: 'the broadcast address',
    reserved: 'a reserved address',
    ...EMBEDDED_IPV4,
  };
  return names[range] ?? `a non-public address (${range})`;
}

/** The range name of an IPv6 address, with the two ipaddr.js leaves under unicast split off. */
function rangeOf6(address: ipaddr.IPv6): string {
  if (address.match(IPV4_COMPATIBLE)) return address.range() === 'unicast' ? 'ipv4Compatible' : address.range();
  const range = address.range();
  if (range === 'unicast' && !address.match(GLOBAL_UNICAST_V6)) return 'outsideGlobalUnicast';
  return range;
}

/** Whether a request may go to this address; anything but global unicast is refused, with the reason. */
export function checkAddress(text: string): AddressVerdict {
  const parsed = parseIpLiteral(text);
  if (!parsed)
    return { allowed: false, address: text, family: text.includes(':') ? 6 : 4, reason: 'not an IP address' };
  const address = parsed.toString();
  if (parsed.kind() === 'ipv4') {
    if (METADATA.has(address)) return { allowed: false, address, family: 4, reason: 'a cloud metadata address' };
    const range = parsed.range();
    return range === 'unicast'
      ? { allowed: true, address, family: 4 }
      : { allowed: false, address, family: 4, reason: rangeName(range) };
  }
  if (METADATA.has(address)) return { allowed: false, address, family: 6, reason: 'a cloud metadata address' };
  const range = rangeOf6(parsed as ipaddr.IPv6);
  if (range === 'unicast') return { allowed: true, address, family: 6 };
  if (range === 'outsideGlobalUnicast')
    return { allowed: false, address, family: 6, reason: 'outside the global unicast range (2000::/3)' };
  return { allowed: false, address, family: 6, reason: rangeName(range) };
}
