// One SMTP listener that several "mailboxes" share: each recipient (RCPT TO) goes to the first mailbox that
// takes its address, so the bounce receiver and inbound mail can serve one port 25. It knows no module: the
// modules hand it their mailboxes through their manifests (src/runtime.ts groups them by port).
// The port faces the internet, so every session is bounded (time, commands, DATA) and so are the bytes of the
// messages being received at once (past them a message is answered 451 4.3.1 and the sender tries later).
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { WeightedSemaphore } from '../lib/weighted-semaphore.ts';
import { isSmtpAnswer, smtpError } from './smtp-connections.ts';
import { receiveData } from './smtp-intake.ts';
import { DEFAULT_SESSION_LIMITS, SessionGuard, type SessionLimits } from './smtp-session-limits.ts';

/** What a mailbox is handed once the whole message has arrived. */
export interface ReceivedMessage {
  /** The message as received, in pieces of PIECE_BYTES (Buffer.concat them where one buffer is needed). */
  pieces: Buffer[];
  size: number;
  /** This mailbox's recipients, as the client gave them. */
  recipients: string[];
  /** MAIL FROM ('' for a null sender). */
  mailFrom: string;
  remoteAddress: string;
  /** The client's EHLO/HELO name. */
  helo: string;
}

/** A kind of recipient a listener serves: bounce reports, inbound mail. */
export interface Mailbox {
  name: string;
  /** Largest message it takes, in bytes; a larger one is refused with 552. */
  maxBytes: number;
  /**
   * Whether it takes mail for this address. A thrown SMTP answer (an error with `responseCode`, such as 452 for a
   * full mailbox) is given to the client as is; any other rejection answers 451.
   */
  accepts(address: string): Promise<boolean>;
  /** Takes a whole message for its recipients; the client hears 250 once every mailbox has resolved. */
  deliver(message: ReceivedMessage): Promise<void>;
  /** Stops what the mailbox runs besides the listener (its threads), when the listener closes. */
  close?(): Promise<void>;
}

export interface SmtpListenerOptions {
  name: string;
  host: string;
  port: number;
  /** Connections in all, and per client address (port 25 faces the internet). */
  maxClients: number;
  maxClientsPerAddress: number;
  mailboxes: Mailbox[];
  logger: Logger;
  /** Idle time after which a connection is closed (a slow client); default 60 s. */
  socketTimeoutMs?: number;
  /** Bytes of messages held at once across sessions; default four of the largest message. */
  inFlightBytes?: number;
  /** Session time, commands without a message, DATA time; defaults: DEFAULT_SESSION_LIMITS. */
  sessionLimits?: SessionLimits;
}

export interface SmtpListener {
  port: number;
  /** Bytes of messages held right now across sessions. */
  bytesInFlight(): number;
  close(): Promise<void>;
}

/** Recipients of one message; the next is answered 452 (the sender sends the rest in another transaction). */
export const MAX_RECIPIENTS = 100;

/** Starts a listener on host:port (0 = any free port) serving `mailboxes`, in order of precedence. */
export async function startSmtpListener(opts: SmtpListenerOptions): Promise<SmtpListener> {
  const log = opts.logger.child({ component: opts.name });
  const largest = Math.max(...opts.mailboxes.map((m) => m.maxBytes));
  const budget = new WeightedSemaphore(opts.inFlightBytes ?? 4 * largest);
  /** Which mailbox took each accepted recipient, by session. */
  const routes = new Map<string, Map<string, Mailbox>>();

  const onRcptTo = (address: { address: string }, session: SMTPServerSession, callback: (error?: Error) => void) => {
    if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, '4.5.3 Too many recipients'));
    (async () => {
      for (const mailbox of opts.mailboxes) {
        if (await mailbox.accepts(address.address)) return mailbox;
      }
      return null;
    })().then(
      (mailbox) => {
        if (!mailbox) return callback(smtpError(550, '5.1.1 No such recipient here'));
        const taken = routes.get(session.id) ?? new Map<string, Mailbox>();
        taken.set(address.address, mailbox);
        routes.set(session.id, taken);
        guard.recipientAccepted(session);
        callback();
      },
      (error: unknown) => {
        if (isSmtpAnswer(error)) return callback(error);
        log.warn({ err: error }, 'recipient lookup failed');
        callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
      },
    );
  };

  const onData = (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null) => void,
  ) => {
    const taken = routes.get(session.id) ?? new Map<string, Mailbox>();
    const byMailbox = new Map<Mailbox, string[]>();
    for (const { address } of session.envelope.rcptTo) {
      const mailbox = taken.get(address);
      if (mailbox) byMailbox.set(mailbox, [...(byMailbox.get(mailbox) ?? []), address]);
    }
    const smallest = Math.min(...[...byMailbox.keys()].map((m) => m.maxBytes));
    const maxBytes = Number.isFinite(smallest) ? smallest : largest;
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const phase = { stream, session, guard, budget, maxBytes, log, failure: { message: 'message could not be taken' } };
    receiveData(
      phase,
      async ({ pieces, size }) => {
        for (const [mailbox, recipients] of byMailbox) {
          await mailbox.deliver({
            pieces,
            size,
            recipients,
            mailFrom,
            remoteAddress: session.remoteAddress,
            helo: session.hostNameAppearsAs,
          });
        }
        return undefined;
      },
      callback,
    );
  };

  const { SMTPServer } = await import('smtp-server'); // loaded when a listener starts: most processes run none
  const server = new SMTPServer({
    name: opts.name,
    banner: 'Herald',
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideSTARTTLS: true,
    size: largest,
    // Past this many connections smtp-server answers 421 and closes.
    maxClients: opts.maxClients,
    socketTimeout: opts.socketTimeoutMs ?? 60_000,
    // Nothing here uses the client's host name: no DNS query per connection.
    disableReverseLookup: true,
    logger: false,
    onConnect: (session, callback) => {
      if (!guard.admit(session)) {
        log.info(
          { address: session.remoteAddress, limit: opts.maxClientsPerAddress },
          'connection refused: too many from one address',
        );
        return callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
      }
      callback();
    },
    onClose: (session) => {
      guard.closed(session);
      routes.delete(session.id);
    },
    onRcptTo,
    onData,
  });
  const limits = { ...(opts.sessionLimits ?? DEFAULT_SESSION_LIMITS), maxPerAddress: opts.maxClientsPerAddress };
  const guard = new SessionGuard(server, limits, log);
  server.on('error', (error) => log.warn({ err: error }, 'smtp listener error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  log.info(
    { host: opts.host, port: address.port, mailboxes: opts.mailboxes.map((m) => m.name) },
    'smtp listener started',
  );
  return {
    port: address.port,
    bytesInFlight: () => budget.held,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(opts.mailboxes.map((m) => m.close?.()));
    },
  };
}
