// SPF, DKIM and DMARC verdicts of a received message (mailauth), with every DNS query through DNS_SERVERS.
import { Resolver } from 'node:dns/promises';
import type { DNSResolver } from 'mailauth';

import type { AuthVerdict } from '../db/schema/inbound.ts';

export type { AuthVerdict };

export interface AuthVerdicts {
  spf: AuthVerdict;
  dkim: AuthVerdict;
  dmarc: AuthVerdict;
}

const VERDICTS = new Set<string>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror']);

function verdict(value: unknown): AuthVerdict {
  const text = typeof value === 'string' ? value.toLowerCase() : 'none';
  if (VERDICTS.has(text)) return text as AuthVerdict;
  return text === 'policy' ? 'fail' : 'neutral';
}

/** mailauth's resolver on the configured servers (the system's when empty), each lookup bounded. */
export function mailauthResolver(servers: readonly string[], timeoutMs = 3000): DNSResolver {
  const resolver = new Resolver({ timeout: Math.max(50, Math.round(timeoutMs / 2)), tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

/**
 * The message's verdicts as a receiving server sees them: SPF of the envelope sender (or the HELO name) for the
 * client's address, the best DKIM signature (pass when any passes), and DMARC of the From domain.
 */
export async function authenticateMessage(opts: { raw: Buffer; ip: string; helo: string; mailFrom: string; mta: string; resolver: DNSResolver }): Promise<AuthVerdicts> {
  const { authenticate } = await import('mailauth'); // loaded on first use: ≈ 35 MB, and only mail in needs it
  const result = await authenticate(opts.raw, {
    ip: opts.ip.replace(/^::ffff:/, ''),
    helo: opts.helo,
    sender: opts.mailFrom,
    mta: opts.mta,
    resolver: opts.resolver,
    trustReceived: false,
    disableArc: true,
    disableBimi: true,
  });
  const dkimResults = (result.dkim?.results ?? []).map((r) => verdict(r.status?.result));
  const dkim = dkimResults.length === 0 ? 'none' : dkimResults.includes('pass') ? 'pass' : dkimResults[0]!;
  return {
    spf: result.spf ? verdict(result.spf.status?.result) : 'none',
    dkim,
    dmarc: result.dmarc ? verdict(result.dmarc.status?.result) : 'none',
  };
}
