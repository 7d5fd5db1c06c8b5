import type { DnsClient } from '../../net/dns.ts';
import { inspectDomain } from './verify.domain.ts';
import type { DomainFindings } from './verify.domain.ts';
import { aliasServiceOf, isDisposableDomain, isKnownDomain, isPersonalDomain } from './verify.lists.ts';
import type { VerifyBatchResult, VerifyResult } from './verify.schemas.ts';
import { parseAddress, type ParsedAddress } from '../../lib/email-address.ts';
import { suggestCorrection } from './verify.typo.ts';

const DEFAULT_CONCURRENCY = 50;

function invalidSyntax(email: string, reason: string): VerifyResult {
  return {
    email,
    valid: false,
    isDisposable: false,
    isAlias: false,
    isTypo: false,
    isPlusAddressed: false,
    isPersonalEmail: false,
    domainExists: false,
    hasWebsite: false,
    hasMxRecords: false,
    reasons: [`Invalid address: ${reason}`],
  };
}

/** true / false as DNS says; null when the lookups that would decide it got no answer. */
function receivesMail(domain: string, findings: DomainFindings): boolean | null {
  if (findings.nullMx) return false;
  if (findings.mxHosts.length > 0 || findings.hasAddress) return true;
  if (findings.nxdomain) return false;
  const routingUnknown = findings.failures.some((f) => f.name === domain && f.type !== 'NS');
  return routingUnknown ? null : false;
}

function describeFailures(findings: DomainFindings): string[] {
  const timedOut = findings.failures.filter((f) => f.status === 'timeout').map((f) => `${f.type} ${f.name}`);
  const failed = findings.failures.filter((f) => f.status === 'error').map((f) => `${f.type} ${f.name}: ${f.code}`);
  const reasons: string[] = [];
  if (timedOut.length > 0) reasons.push(`DNS lookup timed out (${timedOut.join(', ')}); those findings are unknown`);
  if (failed.length > 0) reasons.push(`DNS lookup failed (${failed.join(', ')}); those findings are unknown`);
  return reasons;
}

function describeDns(domain: string, findings: DomainFindings): string[] {
  const reasons: string[] = [];
  if (findings.nxdomain) {
    reasons.push(`Domain ${domain} does not exist (NXDOMAIN)`);
  } else if (findings.nullMx) {
    reasons.push(`Domain ${domain} accepts no email (null MX, RFC 7505)`);
  } else if (findings.mxHosts.length > 0) {
    const shown = findings.mxHosts.slice(0, 3).join(', ') + (findings.mxHosts.length > 3 ? ', …' : '');
    reasons.push(`Domain has MX records (${shown})`);
  } else if (findings.hasAddress) {
    reasons.push(
      findings.mxUnknown
        ? 'MX lookup gave no answer; the domain has an A/AAAA address that can receive mail'
        : 'No MX records; mail goes to the domain’s A/AAAA address (implicit MX)',
    );
  } else if (findings.domainExists) {
    reasons.push(`Domain ${domain} has no MX and no A/AAAA record, so it cannot receive email`);
  }
  if (findings.domainExists && !findings.hasWebsite) reasons.push(`No website at ${domain} or www.${domain}`);
  return [...reasons, ...describeFailures(findings)];
}

type Flags = Omit<VerifyResult, 'email' | 'reasons'>;

function describeAddress(parsed: ParsedAddress, alias: string | null, flags: Flags): string[] {
  const reasons: string[] = [];
  if (parsed.isIdn) reasons.push(`Internationalised domain, looked up as ${parsed.domain}`);
  if (flags.isPlusAddressed) reasons.push(`Plus-addressed: "+${parsed.plusTag}" is a sub-address of the mailbox`);
  if (flags.isDisposable) reasons.push('Disposable (temporary) email domain');
  if (alias !== null) reasons.push(`Forwarding alias service (${alias})`);
  if (flags.isPersonalEmail) reasons.push('Personal email provider (free webmail)');
  if (flags.suggestedEmail) reasons.push(`Possible typo: did you mean ${flags.suggestedEmail}?`);
  return reasons;
}

async function confirmedSuggestion(
  { local, domain }: ParsedAddress,
  deliverable: boolean | null,
  dns: DnsClient,
): Promise<string | null> {
  const suggestion = suggestCorrection({
    local,
    domain,
    isKnownDomain: isKnownDomain(domain),
    receivesMail: deliverable,
  });
  if (!suggestion?.confirmByDns) return suggestion?.email ?? null;
  // Only offer another TLD if mail there would arrive; DNS answered a moment ago, so this is quick.
  const mx = await dns.lookup('MX', suggestion.domain);
  const usable = mx.status === 'found' && mx.records.some((r) => r.exchange !== '' && r.exchange !== '.');
  return usable ? suggestion.email : null;
}

/**
 * Why: the single answer behind POST /v1/verify. Never throws; bounded by the DNS client's timeout (twice
 * that at worst, when a dead domain's TLD fix is confirmed against a server that then stops answering).
 */
export async function verifyEmail({ email, dns }: { email: string; dns: DnsClient }): Promise<VerifyResult> {
  const submitted = email.trim();
  const parsed = parseAddress(submitted);
  if (!parsed.ok) return invalidSyntax(submitted, parsed.reason);

  const findings = await inspectDomain({ domain: parsed.domain, dns });
  const alias = aliasServiceOf(parsed.domain);
  const deliverable = receivesMail(parsed.domain, findings);
  const suggestedEmail = await confirmedSuggestion(parsed, deliverable, dns);
  const hasMxRecords = findings.mxHosts.length > 0;
  const flags: Flags = {
    // Unknown (DNS did not answer) is not proof of a bad address: only syntax, no mail host or a null MX make it
    // invalid.
    valid: deliverable !== false,
    isDisposable: isDisposableDomain(parsed.domain),
    isAlias: alias !== null,
    isTypo: suggestedEmail !== null,
    isPlusAddressed: parsed.plusTag !== null,
    isPersonalEmail: isPersonalDomain(parsed.domain),
    domainExists: findings.domainExists,
    hasWebsite: findings.hasWebsite,
    hasMxRecords,
    ...(suggestedEmail !== null ? { suggestedEmail } : {}),
  };
  const reasons = [...describeAddress(parsed, alias, flags), ...describeDns(parsed.domain, findings)];
  return { email: submitted, ...flags, reasons };
}

/** Why: list cleaning verifies up to 1000 addresses per request; a bounded pool keeps DNS load sane. */
export async function verifyEmails({
  emails,
  dns,
  concurrency = DEFAULT_CONCURRENCY,
}: {
  emails: readonly string[];
  dns: DnsClient;
  concurrency?: number;
}): Promise<VerifyBatchResult> {
  const results = new Array<VerifyResult>(emails.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < emails.length) {
      const index = next++;
      results[index] = await verifyEmail({ email: emails[index] ?? '', dns });
    }
  };
  const workers = Math.max(1, Math.min(concurrency, emails.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { total: results.length, valid: results.filter((r) => r.valid).length, results };
}
