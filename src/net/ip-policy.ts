// Which addresses an outbound request (workflow WEBHOOK steps, webhooks out) may reach: only global
// unicast. Loopback, private, link-local, CGNAT, unique-local, multicast, reserved, the IPv6 forms that
// embed an IPv4 address (mapped, NAT64, 6to4, Teredo) and the cloud metadata addresses are refused.
import ipaddr from 'ipaddr.js';

/** Cloud metadata endpoints, named in the refusal (each is also outside global unicast). */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);

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
    ipv4Mapped: 'an IPv4-mapped IPv6 address',
  };
  return names[range] ?? `a non-public address (${range})`;
}

/** Whether a request may go to this address; anything but global unicast is refused, with the reason. */
export function checkAddress(text: string): AddressVerdict {
  const parsed = parseIpLiteral(text);
  if (!parsed) return { allowed: false, address: text, family: text.includes(':') ? 6 : 4, reason: 'not an IP address' };
  const address = parsed.toString();
  const family = parsed.kind() === 'ipv6' ? 6 : 4;
  if (METADATA.has(address)) return { allowed: false, address, family, reason: 'a cloud metadata address' };
  const range = parsed.range();
  if (range === 'unicast') return { allowed: true, address, family };
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = (parsed as ipaddr.IPv6).toIPv4Address();
    return { allowed: false, address, family, reason: `${rangeName('ipv4Mapped')} (${inner.toString()}: ${inner.range()})` };
  }
  return { allowed: false, address, family, reason: rangeName(range) };
}
