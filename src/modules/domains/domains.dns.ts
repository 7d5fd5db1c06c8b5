import { domainToASCII } from 'node:url';
import type { DomainRecord, DomainStatus } from '../../db/schema/domains.ts';
import { dkimRecordName, dkimTxtValue, splitTxtValue } from '../../mail/dkim-keys.ts';
import type { DnsClient } from '../../net/dns.ts';

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

export interface RecordPlan {
  domain: string;
  selector: string;
  publicKeyBase64: string;
  spfValue: string;
  returnPathHost: string | undefined;
}

/** The DNS records a user publishes for a domain: DKIM (required), SPF and DMARC (advised), return path. */
export function plannedRecords(plan: RecordPlan): DomainRecord[] {
  const dkim = dkimTxtValue(plan.publicKeyBase64);
  const records: DomainRecord[] = [
    { purpose: 'DKIM', type: 'TXT', name: dkimRecordName(plan.selector, plan.domain), value: dkim, values: splitTxtValue(dkim), required: true, status: 'PENDING' },
    { purpose: 'SPF', type: 'TXT', name: plan.domain, value: plan.spfValue, required: false, status: 'PENDING' },
    { purpose: 'DMARC', type: 'TXT', name: `_dmarc.${plan.domain}`, value: `v=DMARC1; p=none; rua=mailto:dmarc@${plan.domain}`, required: false, status: 'PENDING' },
  ];
  if (plan.returnPathHost) {
    records.push({ purpose: 'RETURN_PATH', type: 'CNAME', name: `bounces.${plan.domain}`, value: plan.returnPathHost, required: false, status: 'PENDING' });
  }
  return records;
}

function dkimKey(txt: string): string | null {
  const tags = new Map(txt.split(';').map((part) => {
    const [k, ...v] = part.split('=');
    return [k!.trim().toLowerCase(), v.join('=').replace(/\s+/g, '')] as const;
  }));
  return tags.get('p') ?? null;
}

type Found = 'VERIFIED' | 'FAILED' | 'UNKNOWN';

async function checkRecord(dns: DnsClient, record: DomainRecord): Promise<Found> {
  if (record.type === 'CNAME') {
    const answer = await dns.lookup('CNAME', record.name);
    if (answer.status === 'timeout' || answer.status === 'error') return 'UNKNOWN';
    return answer.status === 'found' && answer.records.some((r) => r.replace(/\.$/, '').toLowerCase() === record.value.toLowerCase()) ? 'VERIFIED' : 'FAILED';
  }
  const answer = await dns.lookup('TXT', record.name);
  if (answer.status === 'timeout' || answer.status === 'error') return 'UNKNOWN';
  if (answer.status !== 'found') return 'FAILED';
  const texts = answer.records.map((chunks) => chunks.join(''));
  switch (record.purpose) {
    case 'DKIM': {
      const want = dkimKey(record.value);
      return texts.some((t) => dkimKey(t) === want) ? 'VERIFIED' : 'FAILED';
    }
    case 'SPF':
      return texts.some((t) => t.trim().toLowerCase().startsWith('v=spf1')) ? 'VERIFIED' : 'FAILED';
    case 'DMARC':
      return texts.some((t) => t.trim().toUpperCase().startsWith('V=DMARC1')) ? 'VERIFIED' : 'FAILED';
    default:
      return 'FAILED';
  }
}

export interface CheckOutcome {
  records: DomainRecord[];
  status: DomainStatus;
  /** True when a lookup timed out or failed: nothing was learnt about the required record. */
  inconclusive: boolean;
}

/** Looks every record up and decides the domain's next status (CONTRACT §7). */
export async function checkDomainRecords(opts: { dns: DnsClient; records: DomainRecord[]; status: DomainStatus; createdAt: Date; now?: Date }): Promise<CheckOutcome> {
  const now = opts.now ?? new Date();
  const found = await Promise.all(opts.records.map((record) => checkRecord(opts.dns, record)));
  const records = opts.records.map((record, i) => ({ ...record, status: found[i] === 'UNKNOWN' ? record.status : (found[i] as 'VERIFIED' | 'FAILED') }));
  const required = opts.records.map((record, i) => ({ record, found: found[i]! })).filter((r) => r.record.required);
  const inconclusive = required.some((r) => r.found === 'UNKNOWN');
  if (inconclusive) return { records, status: opts.status, inconclusive };
  const ok = required.every((r) => r.found === 'VERIFIED');
  if (ok) return { records, status: 'VERIFIED', inconclusive };
  if (opts.status === 'VERIFIED' || opts.status === 'TEMPORARY_FAILURE') return { records, status: 'TEMPORARY_FAILURE', inconclusive };
  const expired = now.getTime() - opts.createdAt.getTime() > PENDING_WINDOW_MS;
  return { records, status: expired ? 'FAILED' : opts.status === 'FAILED' ? 'FAILED' : 'PENDING', inconclusive };
}
