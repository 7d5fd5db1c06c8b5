import { domainToASCII } from 'node:url';
import type { DomainRecord, DomainStatus } from '../../db/schema/domains.ts';
import type { DnsAnswer, DnsClient } from '../../net/dns.ts';

export const PENDING_WINDOW_MS = 72 * 60 * 60 * 1000;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A sender domain as stored: trimmed, lower-case, punycode; null when it is not a domain name. */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '').toLowerCase();
  const ascii = domainToASCII(trimmed);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) return null;
  return ascii;
}

function dkimKey(txt: string): string | null {
  const tags = new Map(
    txt.split(';').map((part) => {
      const [k, ...v] = part.split('=');
      return [k!.trim().toLowerCase(), v.join('=').replace(/\s+/g, '')] as const;
    }),
  );
  return tags.get('p') ?? null;
}

type Found = { status: 'VERIFIED' } | { status: 'FAILED' | 'UNKNOWN'; reason: string };

const failed = (reason: string): Found => ({ status: 'FAILED', reason });
const quoted = (text: string) => `"${text.length > 120 ? `${text.slice(0, 117)}…` : text}"`;

/** An answer that says nothing about the record (timeout, server failure), or that there is none. */
function lookupProblem(answer: DnsAnswer<unknown>, type: string, name: string): Found | null {
  if (answer.status === 'timeout')
    return { status: 'UNKNOWN', reason: `the DNS lookup of ${type} ${name} timed out; try again` };
  if (answer.status === 'error')
    return { status: 'UNKNOWN', reason: `DNS error ${answer.code} looking up ${type} ${name}; try again` };
  if (answer.status !== 'found') return failed(`no ${type} record found at ${name}`);
  return null;
}

/** The mechanisms a planned SPF value asks for (everything but the version and the `all` term). */
function plannedSpfTerms(value: string): string[] {
  return value
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term && term !== 'v=spf1' && !/^[~?+-]?all$/.test(term));
}

function checkSpf(texts: string[], record: DomainRecord): Found {
  const spf = texts.filter((t) => /^v=spf1(\s|$)/i.test(t.trim()));
  if (spf.length === 0) return failed(`found TXT at ${record.name}, but none starting with v=spf1`);
  if (spf.length > 1)
    return failed(
      `found ${spf.length} SPF records (v=spf1) at ${record.name}; receivers ignore all of them — merge them into one`,
    );
  const terms = spf[0]!.toLowerCase().split(/\s+/);
  const missing = plannedSpfTerms(record.value).filter((want) => !terms.includes(want));
  return missing.length === 0
    ? { status: 'VERIFIED' }
    : failed(`found ${quoted(spf[0]!)} without ${missing.join(' ')}`);
}

/** This Herald's report addresses in a planned value (dmarc-…@ and tls-…@): the found record must name them. */
const reportAddressesIn = (value: string) =>
  [...value.matchAll(/mailto:((?:dmarc|tls)-[0-9a-f]+@[^,;\s]+)/gi)].map((m) => m[1]!.toLowerCase());

/** A TXT record starting with its version tag (v=DMARC1, v=TLSRPTv1) that names the planned report addresses. */
function checkTagged(texts: string[], record: DomainRecord, version: RegExp, tag: string): Found {
  const tagged = texts.filter((t) => version.test(t.trim()));
  if (tagged.length === 0) return failed(`found TXT at ${record.name}, but none starting with ${tag}`);
  const missing = reportAddressesIn(record.value).filter((a) => !tagged.some((t) => t.toLowerCase().includes(a)));
  return missing.length === 0
    ? { status: 'VERIFIED' }
    : failed(`found ${quoted(tagged[0]!)} without rua=mailto:${missing.join(',mailto:')}`);
}

function checkTxt(texts: string[], record: DomainRecord): Found {
  switch (record.purpose) {
    case 'DKIM': {
      const want = dkimKey(record.value);
      if (texts.some((t) => dkimKey(t) === want)) return { status: 'VERIFIED' };
      return failed(
        texts.some((t) => dkimKey(t) !== null)
          ? `found a DKIM record at ${record.name}, but its key (p=) is not this domain's key`
          : `found TXT at ${record.name}, but no DKIM key (p=) in it`,
      );
    }
    case 'SPF':
      return checkSpf(texts, record);
    case 'DMARC':
    case 'DMARC_REPORTS':
      return checkTagged(texts, record, /^v=dmarc1(\s|;|$)/i, 'v=DMARC1');
    case 'TLS_REPORTS':
      return checkTagged(texts, record, /^v=tlsrptv1(\s|;|$)/i, 'v=TLSRPTv1');
    default:
      return failed(`a TXT record cannot serve as ${record.purpose}`);
  }
}

async function checkRecord(dns: DnsClient, record: DomainRecord): Promise<Found> {
  if (record.type === 'MX') {
    const answer = await dns.lookup('MX', record.name);
    const problem = lookupProblem(answer, 'MX', record.name);
    if (problem || answer.status !== 'found') return problem!;
    const want = record.value.split(' ').at(-1)!.toLowerCase();
    const hosts = answer.records.map((r) => r.exchange.replace(/\.$/, '').toLowerCase());
    return hosts.includes(want)
      ? { status: 'VERIFIED' }
      : failed(`the MX records of ${record.name} point to ${hosts.join(', ')}, not ${want}`);
  }
  if (record.type === 'CNAME') {
    const answer = await dns.lookup('CNAME', record.name);
    const problem = lookupProblem(answer, 'CNAME', record.name);
    if (problem || answer.status !== 'found') return problem!;
    const targets = answer.records.map((r) => r.replace(/\.$/, '').toLowerCase());
    return targets.includes(record.value.toLowerCase())
      ? { status: 'VERIFIED' }
      : failed(`${record.name} points to ${targets.join(', ')}, not ${record.value}`);
  }
  const answer = await dns.lookup('TXT', record.name);
  const problem = lookupProblem(answer, 'TXT', record.name);
  if (problem || answer.status !== 'found') return problem!;
  return checkTxt(
    answer.records.map((chunks) => chunks.join('')),
    record,
  );
}

export interface CheckOutcome {
  records: DomainRecord[];
  status: DomainStatus;
  /** True when a lookup timed out or failed: nothing was learnt about the required record. */
  inconclusive: boolean;
}

/** Looks every record up and decides the domain's next status. */
export async function checkDomainRecords(opts: {
  dns: DnsClient;
  records: DomainRecord[];
  status: DomainStatus;
  createdAt: Date;
  now?: Date;
}): Promise<CheckOutcome> {
  const now = opts.now ?? new Date();
  const found = await Promise.all(opts.records.map((record) => checkRecord(opts.dns, record)));
  // A lookup that told nothing keeps the record's state and says why it could not be checked.
  const records = opts.records.map((record, i): DomainRecord => {
    const f = found[i]!;
    return {
      ...record,
      status: f.status === 'UNKNOWN' ? record.status : f.status,
      reason: f.status === 'VERIFIED' ? null : f.reason,
    };
  });
  const required = opts.records
    .map((record, i) => ({ record, found: found[i]!.status }))
    .filter((r) => r.record.required);
  const inconclusive = required.some((r) => r.found === 'UNKNOWN');
  if (inconclusive) return { records, status: opts.status, inconclusive };
  const ok = required.every((r) => r.found === 'VERIFIED');
  if (ok) return { records, status: 'VERIFIED', inconclusive };
  if (opts.status === 'VERIFIED' || opts.status === 'TEMPORARY_FAILURE')
    return { records, status: 'TEMPORARY_FAILURE', inconclusive };
  const expired = now.getTime() - opts.createdAt.getTime() > PENDING_WINDOW_MS;
  return { records, status: expired ? 'FAILED' : opts.status === 'FAILED' ? 'FAILED' : 'PENDING', inconclusive };
}
