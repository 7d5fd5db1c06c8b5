// Applies one report received after the handoff to the email it names, exactly once.
import { domainOf } from '../../lib/address-domain.ts';
import type { AppContext } from '../../context.types.ts';
import type { FeedbackKind } from '../../db/schema/index.ts';
import {
  findReportedEmail,
  recordComplaint,
  recordDelivered,
  recordReportedBounce,
  recordReportedDelay,
  type FeedbackSource,
  type ReportedEmailRef,
} from '../emails/index.ts';
import { insertReport } from './feedback.repo.ts';

export type ReportDetail =
  | { kind: 'bounce'; status: string | null; diagnostic: string | null; permanentMailbox?: boolean }
  | { kind: 'delay'; status: string | null; diagnostic: string | null }
  | { kind: 'complaint'; feedbackType: string | null }
  | { kind: 'delivery'; response: string | null };

export type FeedbackResult = 'applied' | 'unchanged' | 'duplicate' | 'unknown-email' | 'foreign';

/**
 * Records a report for the email named by `ref` and applies it: the report row and the email's change
 * commit together, and a replayed report (same fingerprint, same email) changes nothing. `senderDomain`, when
 * given (the VERP address), must be the email's own sender domain, so a report cannot be aimed at another
 * project's email through a domain it does not own. `projectIds`, when given (the SNS topic of projects' own SES
 * transports), must include the email's project, so a project's topic reports on that project's emails only.
 */
export async function applyFeedback(opts: {
  ctx: AppContext;
  ref: ReportedEmailRef;
  senderDomain?: string;
  projectIds?: readonly string[];
  source: FeedbackSource;
  fingerprint: string;
  detail: ReportDetail;
}): Promise<FeedbackResult> {
  const { detail, source } = opts;
  return opts.ctx.db.transaction(async (tx) => {
    const email = await findReportedEmail(tx, opts.ref);
    if (!email) return 'unknown-email';
    if (opts.senderDomain && !sentFrom(email.fromEmail, opts.senderDomain)) return 'foreign';
    if (opts.projectIds && !opts.projectIds.includes(email.projectId)) return 'foreign';
    const kind: FeedbackKind = detail.kind;
    const fresh = await insertReport(tx, {
      projectId: email.projectId,
      emailId: email.id,
      source,
      kind,
      fingerprint: opts.fingerprint,
      detail,
    });
    if (!fresh) return 'duplicate';
    let changed: boolean;
    switch (detail.kind) {
      case 'bounce':
        changed = await recordReportedBounce(tx, email, {
          status: detail.status,
          diagnostic: detail.diagnostic,
          source,
          ...(detail.permanentMailbox === undefined ? {} : { permanentMailbox: detail.permanentMailbox }),
        });
        break;
      case 'delay':
        changed = await recordReportedDelay(tx, email, {
          status: detail.status,
          diagnostic: detail.diagnostic,
          source,
        });
        break;
      case 'complaint':
        changed = await recordComplaint(tx, email, { feedbackType: detail.feedbackType, source });
        break;
      case 'delivery':
        changed = await recordDelivered(tx, email, { source, response: detail.response });
        break;
    }
    return changed ? 'applied' : 'unchanged';
  });
}

// The VERP domain is `bounces.<sender domain>`: the email's From domain must be that domain.
function sentFrom(fromEmail: string, senderDomain: string): boolean {
  return domainOf(fromEmail) === senderDomain.toLowerCase();
}
