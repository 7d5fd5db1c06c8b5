// The DNS records a sender domain is asked to publish. SPF and DMARC are advised only: DKIM alone makes mail
// pass DMARC (aligned), so the suggestions never ask for what Herald cannot know or the user may not have: no SPF
// record is suggested while Herald does not know who sends (`v=spf1 ~all` would authorise nobody).
import { isIP } from 'node:net';
import type { DomainRecord } from '../../db/schema/domains.ts';
import { dkimRecordName, dkimTxtValue, splitTxtValue } from '../../mail/dkim-keys.ts';

export interface RecordPlan {
  domain: string;
  selector: string;
  publicKeyBase64: string;
  /** The suggested SPF value; null when Herald does not know who sends (no SPF record is suggested). */
  spfValue: string | null;
  dmarcValue: string;
  returnPathHost: string | undefined;
}

/** An SPF mechanism for a configured entry: `ip4:`/`ip6:` for addresses and ranges, `include:` for domains. */
function spfMechanism(entry: string): string {
  const version = isIP(entry.split('/')[0]!);
  return version === 4 ? `ip4:${entry}` : version === 6 ? `ip6:${entry}` : `include:${entry}`;
}

/**
 * The mechanisms the suggested SPF record needs: the configured ones (SPF_INCLUDE), else Amazon SES's on the
 * SES transport, else the relay's address when SMTP_URL names it by IP; otherwise none, as Herald cannot know who
 * sends (a relay named by host may send from other addresses, and its host may publish no SPF record to include;
 * `a`/`mx` would authorize hosts that do not send; outbox mail never leaves the machine).
 */
export function spfMechanisms(opts: {
  transport: 'outbox' | 'smtp' | 'ses';
  include: readonly string[];
  smtpUrl?: string | undefined;
}): string[] {
  if (opts.include.length > 0) return opts.include.map(spfMechanism);
  if (opts.transport === 'ses') return ['include:amazonses.com'];
  if (opts.transport === 'smtp' && opts.smtpUrl) {
    const host = new URL(opts.smtpUrl).hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) return [spfMechanism(host)];
  }
  return [];
}

/** The suggested SPF value, `v=spf1 <mechanisms> ~all`; null without mechanisms (it would authorise nobody). */
export function suggestedSpf(mechanisms: readonly string[]): string | null {
  return mechanisms.length > 0 ? ['v=spf1', ...mechanisms, '~all'].join(' ') : null;
}

/**
 * The suggested DMARC value: monitoring only, with aggregate reports to the mailboxes given (the configured one,
 * this Herald's report address when reports are on), or none.
 */
export function suggestedDmarc(...rua: (string | undefined)[]): string {
  const to = rua.filter((address): address is string => Boolean(address));
  return to.length > 0 ? `v=DMARC1; p=none; rua=${to.map((a) => `mailto:${a}`).join(',')}` : 'v=DMARC1; p=none;';
}

/** The report addresses of a domain whose reports come to this Herald: DMARC aggregate and TLS reports. */
export function reportAddresses(token: string, mxHost: string): { dmarc: string; tls: string } {
  return { dmarc: `dmarc-${token}@${mxHost}`, tls: `tls-${token}@${mxHost}` };
}

/**
 * The records with report addresses (on) or without (off): the DMARC record's rua carries this Herald's address
 * beside the configured one, the authorisation record at the report host lets receivers send the domain's reports
 * there (a receiver sends reports to another domain only when that domain says it takes them), and `_smtp._tls`
 * asks for TLS reports. None is required for verification.
 */
export function withReportRecords(
  records: DomainRecord[],
  opts: { domain: string; mxHost: string; token: string; on: boolean; configuredRua: string | undefined },
): DomainRecord[] {
  const others = records.filter((r) => r.purpose !== 'DMARC_REPORTS' && r.purpose !== 'TLS_REPORTS');
  const to = reportAddresses(opts.token, opts.mxHost);
  const dmarcValue = suggestedDmarc(opts.configuredRua, opts.on ? to.dmarc : undefined);
  const withDmarc = others.map((r) =>
    r.purpose === 'DMARC' && r.value !== dmarcValue ? { ...r, value: dmarcValue, status: 'PENDING' as const } : r,
  );
  if (!opts.on) return withDmarc;
  const advised = (purpose: 'DMARC_REPORTS' | 'TLS_REPORTS', name: string, value: string): DomainRecord => ({
    purpose,
    type: 'TXT',
    name,
    value,
    required: false,
    status: 'PENDING',
  });
  return [
    ...withDmarc,
    advised('DMARC_REPORTS', `${opts.domain}._report._dmarc.${opts.mxHost}`, 'v=DMARC1'),
    advised('TLS_REPORTS', `_smtp._tls.${opts.domain}`, `v=TLSRPTv1; rua=mailto:${to.tls}`),
  ];
}

/**
 * The DNS records a user publishes for a domain: DKIM (required), SPF (advised, when Herald knows who sends) and
 * DMARC (advised), return path.
 */
export function plannedRecords(plan: RecordPlan): DomainRecord[] {
  const dkim = dkimTxtValue(plan.publicKeyBase64);
  const records: DomainRecord[] = [
    {
      purpose: 'DKIM',
      type: 'TXT',
      name: dkimRecordName(plan.selector, plan.domain),
      value: dkim,
      values: splitTxtValue(dkim),
      required: true,
      status: 'PENDING',
    },
    ...(plan.spfValue === null
      ? []
      : [
          {
            purpose: 'SPF' as const,
            type: 'TXT' as const,
            name: plan.domain,
            value: plan.spfValue,
            required: false,
            status: 'PENDING' as const,
          },
        ]),
    {
      purpose: 'DMARC',
      type: 'TXT',
      name: `_dmarc.${plan.domain}`,
      value: plan.dmarcValue,
      required: false,
      status: 'PENDING',
    },
  ];
  if (plan.returnPathHost) {
    records.push({
      purpose: 'RETURN_PATH',
      type: 'CNAME',
      name: `bounces.${plan.domain}`,
      value: plan.returnPathHost,
      required: false,
      status: 'PENDING',
    });
  }
  return records;
}

/**
 * The MX record a receiving domain publishes: mail for the domain reaches Herald only through it, but it is not
 * `required` (which means required to send: a missing MX record never holds back the domain's sending).
 */
export function inboundRecord(domain: string, mxHost: string): DomainRecord {
  return { purpose: 'INBOUND', type: 'MX', name: domain, value: `10 ${mxHost}`, required: false, status: 'PENDING' };
}

/** The records with the inbound MX record added (receiving) or removed (not receiving). */
export function withInboundRecord(
  records: DomainRecord[],
  domain: string,
  mxHost: string,
  receiving: boolean,
): DomainRecord[] {
  const others = records.filter((record) => record.purpose !== 'INBOUND');
  return receiving
    ? [...others, records.find((record) => record.purpose === 'INBOUND') ?? inboundRecord(domain, mxHost)]
    : others;
}

/** The CNAME a custom tracking host publishes: it points to PUBLIC_URL's host, which answers links by Host header. */
export function trackingRecord(host: string, publicHost: string): DomainRecord {
  return { purpose: 'TRACKING', type: 'CNAME', name: host, value: publicHost, required: false, status: 'PENDING' };
}

/** The records with the tracking CNAME set to `host` (kept as it is when unchanged) or removed (null). */
export function withTrackingRecord(records: DomainRecord[], host: string | null, publicHost: string): DomainRecord[] {
  const current = records.find((record) => record.purpose === 'TRACKING');
  const others = records.filter((record) => record.purpose !== 'TRACKING');
  if (host === null) return others;
  return [
    ...others,
    current?.name === host && current.value === publicHost ? current : trackingRecord(host, publicHost),
  ];
}
