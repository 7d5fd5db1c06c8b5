// The built-in bounce and feedback receiver: an SMTP listener that accepts mail only for
// `bounces+<valid token>@…`, reads DSNs and ARF reports, and applies them to the email the token names.
import { createHash } from 'node:crypto';
import type { AppContext, MailboxPlan } from '../../context.types.ts';
import { readFeedbackReport, type FeedbackReport } from '../../mail/reports.ts';
import { parseReturnPath } from '../../mail/verp.ts';
import { findReportedEmail } from '../emails/index.ts';
import { applyFeedback, type ReportDetail } from './feedback.service.ts';
import { startSmtpListener, type Mailbox } from '../../net/smtp-listener.ts';

/** Reports larger than this are refused at DATA (552): a DSN or ARF report is a few kilobytes. */
export const MAX_REPORT_BYTES = 5 * 1024 * 1024;

export interface FeedbackReceiver {
  port: number;
  /** Reports accepted but dropped (not a bounce, delay or complaint, or unreadable), since start. */
  dropped(): number;
  close(): Promise<void>;
}

function detailOf(report: FeedbackReport): ReportDetail | null {
  switch (report.kind) {
    case 'bounce':
    case 'delay':
      return { kind: report.kind, status: report.status, diagnostic: report.diagnostic };
    case 'complaint':
      return { kind: 'complaint', feedbackType: report.feedbackType };
    default:
      return null;
  }
}

/**
 * The feedback mailbox: `bounces+<valid token>@…` recipients, their DSNs and ARF reports (and a count of those
 * dropped).
 */
export function feedbackMailbox(ctx: AppContext): Mailbox & { dropped(): number } {
  const secret = ctx.secrets.appSecret;
  const log = ctx.logger.child({ component: 'feedback-smtp' });
  let dropped = 0;
  return {
    name: 'feedback',
    maxBytes: MAX_REPORT_BYTES,
    dropped: () => dropped,
    async accepts(address) {
      const target = parseReturnPath(secret, address);
      return target !== null && (await findReportedEmail(ctx.db, { emailId: target.emailId })) !== null;
    },
    async deliver({ pieces, recipients }) {
      const raw = Buffer.concat(pieces);
      const report = await readFeedbackReport(raw);
      const detail = detailOf(report);
      if (!detail) {
        dropped += 1;
        log.info(
          { reason: report.kind === 'other' ? report.reason : report.kind, dropped },
          'feedback message dropped',
        );
        return;
      }
      const digest = createHash('sha256').update(raw).digest('hex');
      for (const rcpt of recipients) {
        const target = parseReturnPath(secret, rcpt);
        if (!target) continue;
        const result = await applyFeedback({
          ctx,
          ref: { emailId: target.emailId },
          senderDomain: target.senderDomain,
          source: detail.kind === 'complaint' ? 'arf' : 'dsn',
          fingerprint: `smtp:${digest}`,
          detail,
        });
        log.info({ emailId: target.emailId, kind: detail.kind, result }, 'feedback report');
      }
    },
  };
}

/** The feedback mailbox's place: FEEDBACK_SMTP_HOST:FEEDBACK_SMTP_PORT, or null when the port is unset. */
export function feedbackMailboxPlan(ctx: AppContext): MailboxPlan | null {
  const { port, host, maxClients, maxClientsPerAddress } = ctx.config.feedbackSmtp;
  return port === undefined ? null : { port, host, maxClients, maxClientsPerAddress, mailbox: feedbackMailbox(ctx) };
}

/** Starts a listener with the feedback mailbox alone on FEEDBACK_SMTP_HOST (port 0 = any free port, for tests). */
export async function startFeedbackReceiver(ctx: AppContext, port: number): Promise<FeedbackReceiver> {
  const mailbox = feedbackMailbox(ctx);
  const { host, maxClients, maxClientsPerAddress } = ctx.config.feedbackSmtp;
  const listener = await startSmtpListener({
    name: 'herald-feedback',
    host,
    port,
    maxClients,
    maxClientsPerAddress,
    logger: ctx.logger,
    mailboxes: [mailbox],
  });
  return { port: listener.port, dropped: mailbox.dropped, close: listener.close };
}
