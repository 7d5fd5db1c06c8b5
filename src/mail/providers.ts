// A recipient's mailbox provider, from its domain's MX hosts: what routing rules, throttles and metrics group by.
// Lookups go through the instance's DNS client (DNS_SERVERS); answers are kept per domain for an hour, failures
// (no answer in time, no MX) for five minutes as `other`. The providers' own consumer domains need no lookup.
import type { MailboxProvider } from '../db/schema/index.ts';
import type { DnsClient } from '../net/dns.ts';

const BY_MX: [RegExp, MailboxProvider][] = [
  [/(^|\.)(google\.com|googlemail\.com)$/, 'gmail'],
  [/(^|\.)(outlook\.com|protection\.outlook\.com|hotmail\.com)$/, 'microsoft'],
  [/(^|\.)yahoodns\.net$/, 'yahoo'],
  [/(^|\.)icloud\.com$/, 'apple'],
];

const KNOWN_DOMAINS: Record<string, MailboxProvider> = {
  'gmail.com': 'gmail',
  'googlemail.com': 'gmail',
  'outlook.com': 'microsoft',
  'hotmail.com': 'microsoft',
  'live.com': 'microsoft',
  'msn.com': 'microsoft',
  'yahoo.com': 'yahoo',
  'ymail.com': 'yahoo',
  'icloud.com': 'apple',
  'me.com': 'apple',
  'mac.com': 'apple',
};

export const MAILBOX_PROVIDERS: readonly MailboxProvider[] = ['gmail', 'microsoft', 'yahoo', 'apple', 'other'];

/**
 * The provider of a domain whose MX hosts are these: the preferred hosts (the lowest priority value) decide, since
 * they receive the mail; a provider's host kept only as a backup does not make it that provider's.
 */
export function providerOfMxHosts(hosts: { exchange: string; priority: number }[]): MailboxProvider {
  const best = Math.min(...hosts.map((h) => h.priority));
  for (const { exchange } of hosts.filter((h) => h.priority === best)) {
    const host = exchange.toLowerCase().replace(/\.$/, '');
    const found = BY_MX.find(([pattern]) => pattern.test(host));
    if (found) return found[1];
  }
  return 'other';
}

const FOUND_TTL_MS = 3600_000;
const FAILED_TTL_MS = 300_000;
const MAX_ENTRIES = 50_000;

export class MailboxProviders {
  private readonly known = new Map<string, { provider: MailboxProvider; until: number }>();
  private readonly pending = new Map<string, Promise<MailboxProvider>>();

  constructor(
    private readonly dns: Pick<DnsClient, 'lookup'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider of an address's domain. */
  ofAddress(address: string): Promise<MailboxProvider> {
    return this.ofDomain(address.slice(address.lastIndexOf('@') + 1));
  }

  ofDomain(domain: string): Promise<MailboxProvider> {
    const name = domain.toLowerCase();
    const fixed = KNOWN_DOMAINS[name];
    if (fixed) return Promise.resolve(fixed);
    const cached = this.known.get(name);
    if (cached && cached.until > this.now()) return Promise.resolve(cached.provider);
    const inFlight = this.pending.get(name);
    if (inFlight) return inFlight;
    const lookup = this.dns.lookup('MX', name).then(
      (answer) => {
        const found = answer.status === 'found';
        const provider = found ? providerOfMxHosts([...answer.records]) : 'other';
        this.remember(name, provider, found ? FOUND_TTL_MS : FAILED_TTL_MS);
        return provider;
      },
      () => {
        this.remember(name, 'other', FAILED_TTL_MS);
        return 'other' as const;
      },
    );
    this.pending.set(name, lookup);
    return lookup.finally(() => this.pending.delete(name));
  }

  private remember(name: string, provider: MailboxProvider, ttlMs: number): void {
    if (this.known.size >= MAX_ENTRIES) this.known.clear();
    this.known.set(name, { provider, until: this.now() + ttlMs });
  }
}
