// The SMTP submission relay (CONTRACT §14): apps that speak only SMTP send through Herald with a project's secret
// key as the password. Each accepted message is queued like a /v1/send, and answered only after the commit.
import type { AddressInfo } from 'node:net';
import type { SMTPServerAuthentication, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { AppContext, RunningServer } from '../../context.types.ts';
import { parseAddress } from '../../lib/email-address.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { RateLimiter } from '../../lib/rate-limiter.ts';
import { ConnectionCounter, smtpError } from '../../net/smtp-connections.ts';
import { authenticateKey, AuthThrottle, isLoopback, THROTTLED, type RelayUser } from './relay.auth.ts';
import { readSubmission } from './relay.message.ts';
import { submitMessage } from './relay.service.ts';
import { readTlsFilesAtStart, watchTlsFiles } from './relay.tls.ts';

/** The largest message accepted (advertised as SIZE); a larger one is refused with 552 5.3.4. */
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
export const MAX_RECIPIENTS = 50;

export interface SubmissionRelay extends RunningServer {
  port: number;
}

type Callback = (error?: Error | null) => void;

/** The message, or null when it went over the size limit (then it is only drained, never held). */
async function readMessage(stream: SMTPServerDataStream): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk);
  }
  return stream.sizeExceeded || size > MAX_MESSAGE_BYTES ? null : Buffer.concat(chunks);
}

/** An answer the relay chose (it carries an SMTP code), as opposed to a failure of its own. */
const isSmtpAnswer = (error: unknown): error is Error & { responseCode: number } => error instanceof Error && typeof (error as { responseCode?: unknown }).responseCode === 'number';

/** Starts the relay on SUBMISSION_SMTP_HOST:`port` (0 = any free port, for tests). */
export async function startSubmissionRelay(ctx: AppContext, port: number): Promise<SubmissionRelay> {
  const settings = ctx.config.submissionSmtp;
  const log = ctx.logger.child({ component: 'submission-smtp' });
  const throttle = new AuthThrottle();
  const limiter = new RateLimiter(ctx.db);
  const perAddress = new ConnectionCounter(settings.maxClientsPerAddress);
  const tls = settings.tls ? readTlsFilesAtStart(settings.tls) : null;

  const onAuth = (auth: SMTPServerAuthentication, session: SMTPServerSession, callback: (error: Error | null | undefined, response?: { user: RelayUser }) => void) => {
    const address = session.remoteAddress;
    if (throttle.isBlocked(address)) return callback(THROTTLED());
    if (!session.secure && !isLoopback(address)) return callback(smtpError(538, '5.7.11 Encryption required: use STARTTLS (or the TLS port) before AUTH'));
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

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null, message?: string) => void) => {
    // smtp-server keeps whatever AUTH answered as the session's user, though its types say string.
    const { projectId, domainIds } = session.user as unknown as RelayUser;
    readMessage(stream).then(async (raw) => {
      if (!raw) return callback(smtpError(552, `5.3.4 Message too big: the limit is ${MAX_MESSAGE_BYTES} bytes`));
      const submission = await readSubmission(raw);
      const result = await submitMessage({ ctx, limiter, projectId, domainIds, recipients: session.envelope.rcptTo.map((r) => r.address), submission });
      log.info({ projectId, emails: result.ids.length, replayed: result.replayed }, 'relay: message queued');
      // Crash tests: die between the commit and the 250, so the client retries a message that is already queued.
      if (ctx.config.testFault === 'kill-after-relay-commit' && !result.replayed) process.kill(process.pid, 'SIGKILL');
      callback(null, `2.0.0 Ok: queued as ${result.ids.join(',')}`);
    }).catch((error: unknown) => {
      if (isSmtpAnswer(error)) return callback(error);
      log.warn({ err: loggableError(error), projectId }, 'relay: message could not be queued');
      callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
    });
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
      if (perAddress.open(session)) return callback();
      callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
    },
    onClose: (session) => perAddress.close(session),
    onAuth,
    onMailFrom: (_address, session, callback: Callback) => {
      callback(session.user ? undefined : smtpError(530, '5.7.0 Authentication required: AUTH PLAIN or LOGIN with a secret key (sk_…) as the password'));
    },
    onRcptTo: (address, session, callback: Callback) => {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, `4.5.3 Too many recipients: at most ${MAX_RECIPIENTS} per message`));
      callback(parseAddress(address.address).ok ? undefined : smtpError(553, '5.1.3 Invalid recipient address'));
    },
    onData,
  });
  server.on('error', (error) => log.warn({ err: loggableError(error) }, 'submission relay error'));
  const unwatch = settings.tls ? watchTlsFiles(settings.tls, log, (pair) => server.updateSecureContext(pair)) : () => {};
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, settings.host, () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  log.info({ host: settings.host, port: address.port, tls: settings.tls ? (settings.secure ? 'implicit' : 'starttls') : 'none' }, 'submission relay listening');
  return {
    port: address.port,
    close: () => {
      unwatch();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
