// The pre-send check: what a message's content, its links' domains and its sender domain say about how it will
// be received, each issue with a fix, and a score.
import type { AppContext } from '../../context.types.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { AppError } from '../../lib/errors.ts';
import { findSigningDomain, isLocalDomain, trackingHostOf, verifiedTrackingHost } from '../domains/index.ts';
import { checkHtml } from './checks.content.ts';
import { blocklistAnswers, dmarcRecordOf } from './checks.dns.ts';
import type { CheckIssue, CheckResult } from './checks.types.ts';

export interface CheckInput {
  projectId: string;
  /** The HTML the message may go out with (each variant's or translation's too), as stored: Liquid unrendered. */
  bodies: { label: string | null; html: string }[];
  marketing: boolean;
  /** The sender's address, when the message has one. */
  from: string | null;
  /** How many of the audience's recipients lack each contact data key the message reads (campaigns). */
  missingData?: { recipients: number; missing: { key: string; count: number }[] } | null;
  /** Codes the project treats as errors whatever their severity. */
  raise?: readonly string[];
  /**
   * Only what can refuse a send: lookups whose issues are warnings the project did not raise to errors are skipped
   * (a send does not wait on DNS for a warning nobody would see).
   */
  errorsOnly?: boolean;
}

const WEIGHT = { error: 25, warning: 10, info: 2 } as const;

/** The issues of the bodies, one per code: an issue of some bodies only names them. */
function contentIssues(bodies: CheckInput['bodies'], marketing: boolean) {
  const byCode = new Map<string, CheckIssue>();
  const hosts = new Set<string>();
  for (const body of bodies) {
    const facts = checkHtml(body.html, { marketing });
    facts.linkHosts.forEach((host) => hosts.add(host));
    for (const issue of facts.issues) {
      if (byCode.has(issue.code)) continue;
      byCode.set(
        issue.code,
        bodies.length > 1 && body.label ? { ...issue, message: `${body.label}: ${issue.message}` } : issue,
      );
    }
  }
  return { issues: [...byCode.values()], hosts: [...hosts] };
}

/** The hosts Herald itself puts in messages (its own pages, the tracking host): never looked up. */
function ownHosts(ctx: AppContext, trackingHost: string | null): Set<string> {
  const own = new Set<string>([new URL(ctx.config.publicUrl).hostname]);
  if (trackingHost) own.add(trackingHost);
  return own;
}

async function blocklistIssues(ctx: AppContext, hosts: string[]): Promise<CheckIssue[]> {
  const zones = ctx.config.dnsblDomainZones;
  if (zones.length === 0 || hosts.length === 0) return [];
  const answers = await blocklistAnswers(ctx.dns, zones, hosts);
  const listed = answers.filter((a) => a.listed === true);
  const unknown = answers.filter((a) => a.listed === null);
  const issues: CheckIssue[] = [];
  if (listed.length > 0)
    issues.push({
      code: 'link_domain_blocklisted',
      severity: 'error',
      message: `Linked domains are on a blocklist: ${listed
        .map((a) => `${a.name} (${a.zone}: ${a.answer})`)
        .join(', ')}`,
      fix: 'Remove the links to these domains: mailbox providers reject or junk mail that links to them',
    });
  if (unknown.length > 0)
    issues.push({
      code: 'blocklist_unknown',
      severity: 'info',
      message: `The blocklist did not answer for ${[...new Set(unknown.map((a) => a.name))].join(', ')}`,
      fix: 'Check again later; DNS_SERVERS names the resolvers asked (some blocklists refuse public resolvers)',
    });
  return issues;
}

async function senderIssues(
  ctx: AppContext,
  input: CheckInput,
): Promise<{ issues: CheckIssue[]; tracking: string | null }> {
  if (!input.from) return { issues: [], tracking: null };
  const issues: CheckIssue[] = [];
  const domain = await findSigningDomain({ db: ctx.db, projectId: input.projectId, from: input.from });
  const tracking = domain ? trackingHostOf(domain) : null;
  if (domain && tracking && !verifiedTrackingHost(domain))
    issues.push({
      code: 'tracking_host_unverified',
      severity: 'warning',
      message:
        `The tracking host ${tracking} is not verified: links are tracked through ` +
        `${new URL(ctx.config.publicUrl).hostname} instead`,
      fix: `Publish the CNAME record of ${tracking} shown on the domain, then verify the domain again`,
    });
  const senderDomain = domainOf(input.from);
  // A .localhost sender (the local trial's) has no DNS to publish a DMARC record in.
  if (isLocalDomain(senderDomain) || (input.errorsOnly && !input.raise?.includes('no_dmarc')))
    return { issues, tracking };
  const dmarc = await dmarcRecordOf(ctx.dnsFresh, senderDomain);
  if (dmarc === 'missing')
    issues.push({
      code: 'no_dmarc',
      severity: 'warning',
      message: `${senderDomain} publishes no DMARC record; Gmail and Yahoo require one of bulk senders`,
      fix: `Publish the _dmarc.${senderDomain} TXT record the domain's page advises (v=DMARC1; p=none to start)`,
    });
  return { issues, tracking };
}

function variableIssues(missingData: CheckInput['missingData']): CheckIssue[] {
  if (!missingData || missingData.recipients === 0) return [];
  const lacking = missingData.missing.filter((m) => m.count > 0);
  if (lacking.length === 0) return [];
  return [
    {
      code: 'missing_variables',
      severity: 'warning',
      message: `Recipients lack data the message reads: ${lacking
        .map((m) => `${m.key} (${m.count} of ${missingData.recipients})`)
        .join(', ')}; they see it empty`,
      fix: 'Give a fallback ({{ firstName ?? "there" }}), or fill the data in before sending',
    },
  ];
}

/** The check of one message: its issues (errors first) and its score. */
export async function checkMessage(ctx: AppContext, input: CheckInput): Promise<CheckResult> {
  const content = contentIssues(input.bodies, input.marketing);
  const sender = await senderIssues(ctx, input);
  const own = ownHosts(ctx, sender.tracking);
  const blocklist = await blocklistIssues(
    ctx,
    content.hosts.filter((host) => !own.has(host)),
  );
  const raise = new Set(input.raise ?? []);
  const issues = [...content.issues, ...blocklist, ...sender.issues, ...variableIssues(input.missingData)].map(
    (issue) => (raise.has(issue.code) ? { ...issue, severity: 'error' as const } : issue),
  );
  const order = { error: 0, warning: 1, info: 2 } as const;
  issues.sort((a, b) => order[a.severity] - order[b.severity]);
  const score = Math.max(0, 100 - issues.reduce((sum, issue) => sum + WEIGHT[issue.severity], 0));
  return { score, issues };
}

/** The 409 of a send whose check found errors, listing them. */
export function checkFailed(result: CheckResult, checkPath: string): AppError {
  const errors = result.issues.filter((issue) => issue.severity === 'error');
  return new AppError(
    'CHECK_FAILED',
    `The pre-send check found ${errors.length} error(s): ${errors.map((issue) => issue.message).join('; ')}`,
    {
      errors: errors.map((issue) => ({ field: 'check', message: issue.message, code: issue.code })),
      suggestion: `Fix them (POST ${checkPath} lists each with its fix), or send again with {"force": true}`,
    },
  );
}
