// The SMTP submission relay: apps that speak only SMTP send through Herald with a project's secret key as the
// password. Each accepted message is queued like a /v1/send, and answered only after the commit. Sessions are
// bounded like every listener's (time, commands, DATA), and so are the bytes of messages arriving at once.
import type { AddressInfo } from 'node:net';
import type { SMTPServerAuthentication, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { AppContext, RunningServer } from '../../context.types.ts';
import { parseAddress } from '../../lib/email-address.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { WeightedSemaphore } from '../../lib/weighted-semaphore.ts';
import { RateLimiter } from '../../lib/rate-limiter.ts';
import { isSmtpAnswer, smtpError } from '../../net/smtp-connections.ts';
import { receiveData } from '../../net/smtp-intake.ts';
import { DEFAULT_SESSION_LIMITS, SessionGuard, type SessionLimits } from '../../net/smtp-session-limits.ts';
import { isLoopback } from '../../net/loopback.ts';
import { authenticateKey, AuthThrottle, recheckKey, THROTTLED, type RelayUser } from './relay.auth.ts';
import { readSubmission } from './relay.message.ts';
import { submitMessage } from './relay.service.ts';
import { readTlsFilesAtStart, watchTlsFiles } from './relay.tls.ts';

/** The largest message accepted (advertised as SIZE); a larger one is refused with 552 5.3.4. */
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
export const MAX_RECIPIENTS = 50;

export interface SubmissionRelay extends RunningServer {
  port: number;
  /** Bytes of messages held right now across sessions. */
  bytesInFlight(): number;
}

type Callback = (error?: Error | null) => void;

/** smtp-server keeps whatever AUTH answered as the session's user, though its types say string. */
const userOf = (session: SMTPServerSession) => session.user as unknown as RelayUser | undefined;

/** Starts the relay on SUBMISSION_SMTP_HOST:`port` (0 = any free port); `opts` overrides its bounds (tests). */
export async function startSubmissionRelay(
  ctx: AppContext,
  port: number,
  opts: { inFlightBytes?: number; sessionLimits?: SessionLimits } = {},
): Promise<SubmissionRelay> {
  const settings = ctx.config.submissionSmtp;
  const log = ctx.logger.child({ component: 'submission-smtp' });
  const throttle = new AuthThrottle();
  const limiter = new RateLimiter(ctx.db);
  const budget = new WeightedSemaphore(opts.inFlightBytes ?? 4 * MAX_MESSAGE_BYTES);
  const tls = settings.tls ? readTlsFilesAtStart(settings.tls) : null;

  const onAuth = (
    auth: SMTPServerAuthentication,
    session: SMTPServerSession,
    callback: (error: Error | null | undefined, response?: { user: RelayUser }) => void,
  ) => {
    const address = session.remoteAddress;
    if (throttle.isBlocked(address)) return callback(THROTTLED());
    // AUTH without TLS is allowed only from this machine.
    if (!session.secure && !isLoopback(address))
      return callback(smtpError(538, '5.7.11 Encryption required: use STARTTLS (or the TLS port) before AUTH'));
    authenticateKey(ctx.db, auth.password ?? '').then(
      (user) => callback(null, { user }),
      (error: unknown) => {
        if (!isSmtpAnswer(error)) {
          log.warn({ err: loggableError(error) }, 'relay key lookup failed');
          return callback(smtpError(454, '4.7.0 Temporary authentication failure, try again later'));
        }
        const blocked = throttle.fail(address);
        if (blocked) log.info({ address }, 'relay: too many failed AUTHs, address shut out for a minute');
        callback(blocked ? THROTTLED() : error);
      },
    );
  };

  // A key revoked or a project disabled since AUTH (or the last message) stops the session here: nothing more is
  // queued.
  const onMailFrom = (session: SMTPServerSession, callback: Callback) => {
    const user = userOf(session);
    if (!user)
      return callback(
        smtpError(530, '5.7.0 Authentication required: AUTH PLAIN or LOGIN with a secret key (sk_...) as the password'),
      );
    recheckKey(ctx.db, user).then(
      (current) => {
        session.user = current as unknown as string;
        callback();
      },
      (error: unknown) => {
        if (!isSmtpAnswer(error)) {
          log.warn({ err: loggableError(error) }, 'relay key lookup failed');
          return callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        }
        log.info(
          { projectId: user.projectId, keyId: user.keyId, code: error.responseCode },
          'relay: session ended, its key or project no longer sends',
        );
        callback(error);
        guard.end(session);
      },
    );
  };

  const onData = (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null, message?: string) => void,
  ) => {
    const { projectId, domainIds } = userOf(session)!;
    const recipients = session.envelope.rcptTo.map((r) => r.address);
    const phase = {
      stream,
      session,
      guard,
      budget,
      maxBytes: MAX_MESSAGE_BYTES,
      log,
      failure: { message: 'relay: message could not be queued', fields: { projectId } },
    };
    receiveData(
      phase,
      async ({ pieces }) => {
        const submission = await readSubmission(Buffer.concat(pieces));
        const result = await submitMessage({ ctx, limiter, projectId, domainIds, recipients, submission });
        log.info({ projectId, emails: result.ids.length, replayed: result.replayed }, 'relay: message queued');
        // Crash tests: die between the commit and the 250, so the client retries a message that is already queued.
        if (ctx.config.testFault === 'kill-after-relay-commit' && !result.replayed)
          process.kill(process.pid, 'SIGKILL');
        return `2.0.0 Ok: queued as ${result.ids.join(',')}`;
      },
      callback,
    );
  };

  const { SMTPServer } = await import('smtp-server'); // loaded when the relay starts: most processes run none
  const server = new SMTPServer({
    name: 'herald-relay',
    banner: 'Herald submission relay',
    secure: settings.secure,
    ...(tls ? { key: tls.key, cert: tls.cert } : { hideSTARTTLS: true }),
    authMethods: ['PLAIN', 'LOGIN'],
    // AUTH is required, but checked at MAIL (530 5.7.0) and, without TLS, allowed only from loopback (538 5.7.11).
    authOptional: true,
    allowInsecureAuth: true,
    hideSMTPUTF8: true,
    size: MAX_MESSAGE_BYTES,
    maxClients: settings.maxClients,
    socketTimeout: settings.timeoutMs,
    disableReverseLookup: true,
    logger: false,
    onConnect: (session, callback: Callback) => {
      if (throttle.isBlocked(session.remoteAddress)) return callback(THROTTLED());
      if (!guard.admit(session)) {
        return callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
      }
      callback();
    },
    onClose: (session) => guard.closed(session),
    onAuth,
    onMailFrom: (_address, session, callback: Callback) => onMailFrom(session, callback),
    onRcptTo: (address, session, callback: Callback) => {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS)
        return callback(smtpError(452, `4.5.3 Too many recipients: at most ${MAX_RECIPIENTS} per message`));
      if (!parseAddress(address.address).ok) return callback(smtpError(553, '5.1.3 Invalid recipient address'));
      guard.recipientAccepted(session);
      callback();
    },
    onData,
  });
  const limits = { ...(opts.sessionLimits ?? DEFAULT_SESSION_LIMITS), maxPerAddress: settings.maxClientsPerAddress };
  const guard = new SessionGuard(server, limits, log);
  server.on('error', (error) => log.warn({ err: loggableError(error) }, 'submission relay error'));
  const unwatch = settings.tls
    ? watchTlsFiles(settings.tls, log, (pair) => server.updateSecureContext(pair))
    : () => {};
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, settings.host, () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  log.info(
    {
      host: settings.host,
      port: address.port,
      tls: settings.tls ? (settings.secure ? 'implicit' : 'starttls') : 'none',
    },
    'submission relay listening',
  );
  return {
    port: address.port,
    listening: {
      label: 'SMTP relay',
      host: settings.host,
      port: address.port,
      note: 'AUTH PLAIN or LOGIN with a secret key as the password',
    },
    bytesInFlight: () => budget.held,
    close: () => {
      unwatch();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
