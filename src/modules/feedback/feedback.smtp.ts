// The built-in bounce and feedback receiver (CONTRACT §12): an SMTP listener that accepts mail only for
// `bounces+<valid token>@…`, reads DSNs and ARF reports, and applies them to the email the token names.
import { createHash } from 'node:crypto';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../../context.types.ts';
import { readFeedbackReport, type FeedbackReport } from '../../mail/reports.ts';
import { parseReturnPath } from '../../mail/verp.ts';
import { findReportedEmail } from '../delivery/index.ts';
import { applyFeedback, type ReportDetail } from './feedback.service.ts';
import { ConnectionCounter } from './feedback.smtp.limits.ts';

/** Reports larger than this are refused at DATA (552): a DSN or ARF report is a few kilobytes. */
export const MAX_REPORT_BYTES = 5 * 1024 * 1024;

export interface FeedbackReceiver {
  port: number;
  /** Reports accepted but dropped (not a bounce, delay or complaint, or unreadable), since start. */
  dropped(): number;
  close(): Promise<void>;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
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

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_REPORT_BYTES) chunks.push(chunk); // past the cap only drain, never hold
  }
  return Buffer.concat(chunks);
}

/** Starts the receiver on FEEDBACK_SMTP_HOST:FEEDBACK_SMTP_PORT (port 0 = any free port, for tests). */
export async function startFeedbackReceiver(ctx: AppContext, port: number): Promise<FeedbackReceiver> {
  const secret = ctx.secrets.appSecret;
  const log = ctx.logger.child({ component: 'feedback-smtp' });
  let dropped = 0;

  const onRcptTo = (address: { address: string }, _session: SMTPServerSession, callback: (error?: Error) => void) => {
    const target = parseReturnPath(secret, address.address);
    if (!target) return callback(smtpError(550, '5.1.1 No such recipient here'));
    findReportedEmail(ctx.db, { emailId: target.emailId }).then(
      (email) => callback(email ? undefined : smtpError(550, '5.1.1 No such recipient here')),
      (error: unknown) => {
        log.warn({ err: error }, 'recipient lookup failed');
        callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
      },
    );
  };

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) => {
    readAll(stream).then(async (raw) => {
      if (stream.sizeExceeded) return callback(smtpError(552, '5.3.4 Message too big for this receiver'));
      const report = await readFeedbackReport(raw);
      const detail = detailOf(report);
      if (!detail) {
        dropped += 1;
        log.info({ reason: report.kind === 'other' ? report.reason : report.kind, dropped }, 'feedback message dropped');
        return callback(null);
      }
      const digest = createHash('sha256').update(raw).digest('hex');
      for (const rcpt of session.envelope.rcptTo) {
        const target = parseReturnPath(secret, rcpt.address);
        if (!target) continue;
        const result = await applyFeedback({ ctx, ref: { emailId: target.emailId }, senderDomain: target.senderDomain, source: detail.kind === 'complaint' ? 'arf' : 'dsn', fingerprint: `smtp:${digest}`, detail });
        log.info({ emailId: target.emailId, kind: detail.kind, result }, 'feedback report');
      }
      callback(null);
    }).catch((error: unknown) => {
      log.warn({ err: error }, 'feedback report could not be recorded');
      callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
    });
  };

  const { maxClients, maxClientsPerAddress } = ctx.config.feedbackSmtp;
  const perAddress = new ConnectionCounter(maxClientsPerAddress);
  const server = new SMTPServer({
    name: 'herald-feedback',
    banner: 'Herald feedback receiver',
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideSTARTTLS: true,
    size: MAX_REPORT_BYTES,
    // Port 25 faces the internet: past this many connections smtp-server answers 421 and closes.
    maxClients,
    // Nothing here uses the client's host name: no DNS query per connection.
    disableReverseLookup: true,
    logger: false,
    onConnect: (session, callback) => {
      if (perAddress.open(session)) return callback();
      log.info({ address: session.remoteAddress, limit: maxClientsPerAddress }, 'feedback connection refused: too many from one address');
      callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
    },
    onClose: (session) => perAddress.close(session),
    onRcptTo,
    onData,
  });
  server.on('error', (error) => log.warn({ err: error }, 'feedback receiver error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ctx.config.feedbackSmtp.host, () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  log.info({ host: ctx.config.feedbackSmtp.host, port: address.port }, 'feedback receiver listening');
  return {
    port: address.port,
    dropped: () => dropped,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
