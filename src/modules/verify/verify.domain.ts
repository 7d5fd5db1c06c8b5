import type { DnsAnswer, DnsClient, DnsRecordType } from '../../net/dns.ts';

/** What DNS says about a mail domain. "Unknown" findings (timeouts, server errors) read as false. */
export interface DomainFindings {
  domainExists: boolean;
  /** NXDOMAIN: the name does not exist at all. */
  nxdomain: boolean;
  /** Real MX hosts, best priority first (a null MX is not one). */
  mxHosts: string[];
  /** RFC 7505: the domain says it accepts no mail. */
  nullMx: boolean;
  /** The MX lookup itself got no usable answer, so "no MX" is not known. */
  mxUnknown: boolean;
  /** A or AAAA on the domain itself: the implicit MX when there is no MX (RFC 5321 §5.1). */
  hasAddress: boolean;
  hasWebsite: boolean;
  /** Lookups that got no usable answer, e.g. `MX timed out`. */
  failures: { type: DnsRecordType; name: string; status: 'timeout' | 'error'; code?: string }[];
}

const answered = (answer: DnsAnswer<unknown>): boolean => answer.status === 'found' || answer.status === 'nodata';
const found = (answer: DnsAnswer<unknown>): boolean => answer.status === 'found';
// "." on the wire; node:dns reports the root name as "".
const isNullExchange = (exchange: string): boolean => exchange === '' || exchange === '.';

const MAX_NAME_LENGTH = 253;

/** Why: all six lookups go out at once, so the slowest one, not their sum, bounds the answer time. */
export async function inspectDomain({ domain, dns }: { domain: string; dns: DnsClient }): Promise<DomainFindings> {
  const www = `www.${domain}`;
  // A domain of 250+ characters has no room for "www."; that name cannot exist.
  const lookupWww = (type: 'A' | 'AAAA') =>
    www.length <= MAX_NAME_LENGTH ? dns.lookup(type, www) : Promise.resolve({ status: 'nxdomain' } as const);
  const [mx, a, aaaa, ns, wwwA, wwwAaaa] = await Promise.all([
    dns.lookup('MX', domain),
    dns.lookup('A', domain),
    dns.lookup('AAAA', domain),
    dns.lookup('NS', domain),
    lookupWww('A'),
    lookupWww('AAAA'),
  ]);

  const ownAnswers = [mx, a, aaaa, ns];
  const domainExists = ownAnswers.some(answered);
  const nxdomain = !domainExists && ownAnswers.some((x) => x.status === 'nxdomain');

  const mxRecords = mx.status === 'found' ? mx.records : [];
  const nullMx = mxRecords.length > 0 && mxRecords.every((r) => isNullExchange(r.exchange));
  const mxHosts = mxRecords
    .filter((r) => !isNullExchange(r.exchange))
    .sort((x, y) => x.priority - y.priority)
    .map((r) => r.exchange.replace(/\.$/, '').toLowerCase());

  const hasAddress = found(a) || found(aaaa);
  const labelled = [
    ['MX', domain, mx],
    ['A', domain, a],
    ['AAAA', domain, aaaa],
    ['NS', domain, ns],
    ['A', www, wwwA],
    ['AAAA', www, wwwAaaa],
  ] as const;
  const failures: DomainFindings['failures'] = [];
  for (const [type, name, answer] of labelled) {
    if (answer.status === 'timeout') failures.push({ type, name, status: 'timeout' });
    if (answer.status === 'error') failures.push({ type, name, status: 'error', code: answer.code });
  }

  return {
    domainExists,
    nxdomain,
    mxHosts,
    nullMx,
    mxUnknown: mx.status === 'timeout' || mx.status === 'error',
    hasAddress,
    hasWebsite: hasAddress || found(wwwA) || found(wwwAaaa),
    failures,
  };
}
