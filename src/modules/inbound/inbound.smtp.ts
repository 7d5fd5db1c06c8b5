// Where the inbound mailbox listens, and a listener of its own for tests.
import type { AppContext, MailboxPlan } from '../../context.types.ts';
import { startSmtpListener, type SmtpListener, type SmtpListenerOptions } from '../../net/smtp-listener.ts';
import { inboundMailbox } from './inbound.receive.ts';
import { reportsMailbox } from './inbound.reports.ts';

/** INBOUND_SMTP_HOST:INBOUND_SMTP_PORT, or null when the port is unset (inbound mail off). */
export function inboundMailboxPlan(ctx: AppContext): MailboxPlan | null {
  const { port, host, maxClients, maxClientsPerAddress } = ctx.config.inbound;
  return port === undefined ? null : { port, host, maxClients, maxClientsPerAddress, mailbox: inboundMailbox(ctx) };
}

/** The report addresses listen with inbound mail (the same port, ahead of it), or not at all. */
export function reportsMailboxPlan(ctx: AppContext): MailboxPlan | null {
  const { port, host, maxClients, maxClientsPerAddress } = ctx.config.inbound;
  return port === undefined ? null : { port, host, maxClients, maxClientsPerAddress, mailbox: reportsMailbox(ctx) };
}

/**
 * Starts a listener with the report and inbound mailboxes alone (port 0 = any free port); `opts` overrides its bounds
 * (tests).
 */
export function startInboundReceiver(
  ctx: AppContext,
  port: number,
  opts: Pick<SmtpListenerOptions, 'socketTimeoutMs' | 'inFlightBytes' | 'sessionLimits'> = {},
): Promise<SmtpListener> {
  const { host, maxClients, maxClientsPerAddress } = ctx.config.inbound;
  return startSmtpListener({
    name: 'herald-inbound',
    host,
    port,
    maxClients,
    maxClientsPerAddress,
    logger: ctx.logger,
    mailboxes: [reportsMailbox(ctx), inboundMailbox(ctx)],
    ...opts,
  });
}
