// Report mail: DMARC aggregate and TLS reports sent to a sender domain's report addresses (dmarc-<token>@ and
// tls-<token>@ INBOUND_MX_HOST). They are no project's inbound mail: the message and the reports in its attachments
// (or its body) are read on a receive thread, and the reports handed to the domains module, which owns them. An
// address with an unknown token is refused at RCPT; a report refused for its content is answered 5xx, so its sender
// learns it.
import type { AppContext } from '../../context.types.ts';
import { createReceivedReader } from '../../mail/receive-pool/index.ts';
import type { Mailbox } from '../../net/smtp-listener.ts';
import { smtpError } from '../../net/smtp-connections.ts';
import { acceptsReportAddress, isReportAddress, receiveReports, ReportRefused } from '../domains/index.ts';
import { readOnThread } from './inbound.receive.ts';

/** The report mailbox: the report addresses of domains whose reports are on, ahead of the inbound mailbox. */
export function reportsMailbox(ctx: AppContext): Mailbox {
  const reader = createReceivedReader(1);
  const log = ctx.logger.child({ component: 'report-smtp' });
  return {
    name: 'reports',
    maxBytes: ctx.config.inbound.maxBytes,
    async accepts(address) {
      if (!isReportAddress(ctx, address)) return false;
      if (await acceptsReportAddress({ ctx, address })) return true;
      throw smtpError(550, '5.1.1 No such report address here');
    },
    async deliver(message) {
      const { reports } = await readOnThread(ctx, reader, message, { reports: true });
      try {
        const outcome = await receiveReports({ ctx, recipients: message.recipients, reports: reports! });
        log.info({ ...outcome, size: message.size }, 'report mail received');
      } catch (error) {
        if (!(error instanceof ReportRefused)) throw error;
        log.info({ reason: error.reason, size: message.size }, `report mail refused: ${error.message}`);
        throw error.reason === 'wrong_domain'
          ? smtpError(550, `5.7.1 Report refused: ${error.message}`)
          : smtpError(554, `5.6.0 Report refused: ${error.message}`);
      }
    },
    close: () => reader.close(),
  };
}
