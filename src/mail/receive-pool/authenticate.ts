// SPF, DKIM and DMARC verdicts of a received message (mailauth), with every DNS query through DNS_SERVERS and the
// work per message bounded whoever sent it: at most MAX_SIGNATURES DKIM signatures are checked (each costs a pass
// over the body and a DNS lookup), a signature whose l= leaves part of the body unsigned counts for nothing, and
// the whole check has a deadline, past which every verdict is `temperror`.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { DNSResolver } from 'mailauth';
import type { AuthVerdict } from '../../db/schema/inbound.ts';

export interface AuthVerdicts {
  spf: AuthVerdict;
  dkim: AuthVerdict;
  dmarc: AuthVerdict;
}

/** DKIM-Signature headers checked, from the top (the most recent first); the others are ignored. */
export const MAX_SIGNATURES = 5;

const VERDICTS = new Set<string>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror']);
const TIMED_OUT: AuthVerdicts = { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };

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

/** The message without the DKIM-Signature header fields after the first `max` (the body is not copied when none go). */
export function keepSignatures(raw: Buffer, max: number): Buffer {
  // The header section with its last line's line break (the blank line after it starts the body).
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = crlf === -1 ? raw.indexOf('\n\n') : -1;
  const head = raw.subarray(0, crlf !== -1 ? crlf + 2 : lf !== -1 ? lf + 1 : raw.length).toString('latin1');
  const drop: [number, number][] = [];
  let seen = 0;
  // A field starts at a line that does not begin with white space and runs to the next such line.
  const field = /^[^ \t\r\n][^\n]*\n?(?:[ \t][^\n]*\n?)*/gm;
  for (let match = field.exec(head); match; match = field.exec(head)) {
    if (!/^dkim-signature[ \t]*:/i.test(match[0])) continue;
    seen += 1;
    if (seen > max) drop.push([match.index, match.index + match[0].length]);
  }
  if (drop.length === 0) return raw;
  const parts: Buffer[] = [];
  let from = 0;
  for (const [start, stop] of drop) {
    parts.push(raw.subarray(from, start));
    from = stop;
  }
  parts.push(raw.subarray(from));
  return Buffer.concat(parts);
}

/** A received message and how it arrived: the client's address and HELO name, MAIL FROM, this server's name. */
interface Arrival {
  raw: Buffer;
  ip: string;
  helo: string;
  mailFrom: string;
  mta: string;
  resolver: DNSResolver;
}

async function verify(opts: Arrival): Promise<AuthVerdicts> {
  const [{ dkimVerify }, { spf }, { dmarc }] = await Promise.all([
    import('mailauth/lib/dkim/verify.js'),
    import('mailauth/lib/spf/index.js'),
    import('mailauth/lib/dmarc/index.js'),
  ]);
  const dkimResult = await dkimVerify(keepSignatures(opts.raw, MAX_SIGNATURES), {
    resolver: opts.resolver,
    sender: opts.mailFrom,
  });
  // A signature with l= shorter than the body signs only its start: whatever follows could be anyone's.
  const results = dkimResult.results.filter((r) => !r.status?.underSized);
  const ip = opts.ip.replace(/^::ffff:/, '');
  const helo = opts.helo || ip;
  const spfResult = await spf({
    ip,
    helo: isIP(helo) ? `[${helo}]` : helo,
    sender: opts.mailFrom,
    mta: opts.mta,
    resolver: opts.resolver,
  });
  const dmarcResult = dkimResult.headerFrom
    ? await dmarc({
        headerFrom: dkimResult.headerFrom,
        spfDomains: spfResult.status.result === 'pass' && spfResult.domain ? [spfResult.domain] : [],
        dkimDomains: results
          .filter((r) => r.status.result === 'pass')
          .map((r) => ({ id: r.id, domain: r.signingDomain, aligned: r.status.aligned })),
        resolver: opts.resolver,
      })
    : false;
  const dkim = results.map((r) => verdict(r.status?.result));
  return {
    spf: verdict(spfResult.status?.result),
    dkim: dkim.length === 0 ? 'none' : dkim.includes('pass') ? 'pass' : dkim[0]!,
    dmarc: dmarcResult ? verdict(dmarcResult.status?.result) : 'none',
  };
}

/**
 * The message's verdicts as a receiving server sees them: SPF of the envelope sender (or the HELO name) for the
 * client's address, the best DKIM signature (pass when any passes), and DMARC of the From domain; all
 * `temperror` when they take longer than `deadlineMs`.
 */
export async function authenticateMessage(opts: Arrival & { deadlineMs: number }): Promise<AuthVerdicts> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<AuthVerdicts>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), opts.deadlineMs);
  });
  try {
    return await Promise.race([verify(opts).catch(() => TIMED_OUT), late]);
  } finally {
    clearTimeout(timer);
  }
}
