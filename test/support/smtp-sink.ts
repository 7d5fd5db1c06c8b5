/**
 * A real SMTP server for tests and benchmarks (smtp-server on 127.0.0.1, random port, no TLS, AUTH optional
 * and any credentials accepted). It keeps every accepted message and can be told to reject recipients.
 *
 *   const sink = await startSmtpSink();
 *   sink.url                      // 'smtp://127.0.0.1:<port>' → use as SMTP_URL
 *   sink.failRecipient('a@x.test', { code: 451, message: '4.3.0 Try again later', times: 2 }); // then accepts
 *   sink.failRecipient('b@x.test', { code: 550, message: '5.1.1 No such user' });              // always
 *   sink.failRecipient('c@x.test', { code: 550, message: '5.7.515 Access denied', stage: 'data' });
 *   const [msg] = await sink.waitForMessages(1);  // { from, to, raw, receivedAt, arrivedAt }
 *   await sink.waitForRecipient('d@x.test');      // the first message to that address
 *   sink.perRecipient.get('d@x.test')             // how many messages reached that address (duplicates show)
 *   sink.rcptAttempts                              // every RCPT TO seen: { address, accepted, response }
 *   sink.clear(); await sink.close();
 *
 * Replies are `${code} ${message}` verbatim, so put the enhanced status code at the start of `message`.
 * Addresses are matched case-insensitively. `stage: 'rcpt'` (default) answers RCPT TO; `stage: 'data'`
 * accepts the recipient and answers the end of DATA instead. `times` omitted = every time.
 * `startSmtpSink({ keepRaw: false })` stores each message with an empty `raw` (benchmarks of 100,000 messages
 * count and time them without holding their bytes).
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  /** MAIL FROM ('' for the null sender). */
  from: string;
  /** RCPT TO addresses accepted for this message. */
  to: string[];
  /** Message bytes as received (dot-unstuffed by the server). */
  raw: Buffer;
  receivedAt: Date;
  /** performance.now() of this process when the message was stored: sub-millisecond, for latency figures. */
  arrivedAt: number;
  /** The client asked for SMTPUTF8 (RFC 6531) in MAIL FROM. */
  smtpUtf8: boolean;
}

export interface RecipientFailure {
  code: number;
  message: string;
  /** How many times to fail before accepting; omitted = always. */
  times?: number;
  stage?: 'rcpt' | 'data';
}

export interface RcptAttempt {
  address: string;
  accepted: boolean;
  response?: string;
}

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedMessage[];
  rcptAttempts: RcptAttempt[];
  /** Messages stored per recipient address (lower-cased), so duplicates and missing recipients can be counted. */
  perRecipient: Map<string, number>;
  failRecipient(address: string, failure: RecipientFailure): void;
  /** Removes the rule for one address, or all rules. */
  clearFailures(address?: string): void;
  /** Resolves once at least `count` messages are stored (rejects after `timeoutMs`, default 10 s). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /** Resolves with the first stored message to `address` (rejects after `timeoutMs`, default 10 s). */
  waitForRecipient(address: string, timeoutMs?: number): Promise<ReceivedMessage>;
  /** Forgets stored messages, attempts and per-recipient counts (failure rules stay). */
  clear(): void;
  /** Answers every message this long after its last byte (a slow receiver); 0 = at once. */
  setReplyDelay(ms: number): void;
  /** Messages between their first byte and the sink's reply now. */
  inData(): number;
  /** The most messages that were between their first byte and the sink's reply at one time (since the last reset). */
  maxInData(): number;
  resetMaxInData(): void;
  close(): Promise<void>;
}

interface Rule extends RecipientFailure {
  remaining: number;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export async function startSmtpSink(
  options: { port?: number; keepRaw?: boolean; /** default 127.0.0.1 */ host?: string } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMessage[] = [];
  const rcptAttempts: RcptAttempt[] = [];
  const perRecipient = new Map<string, number>();
  const firstTo = new Map<string, ReceivedMessage>();
  const rules = new Map<string, Rule>();
  const waiters = new Set<() => void>();
  let replyDelayMs = 0;
  let inData = 0;
  let maxInData = 0;

  // Consumes one use of a rule, returning it if it applies now.
  const take = (address: string, stage: 'rcpt' | 'data'): Rule | undefined => {
    const rule = rules.get(address.toLowerCase());
    if (!rule || (rule.stage ?? 'rcpt') !== stage || rule.remaining <= 0) return undefined;
    rule.remaining -= 1;
    return rule;
  };

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'herald test sink',
    size: 60 * 1024 * 1024,
    closeTimeout: 200, // close() does not wait 30 s for pooled client connections
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'sink' });
    },
    onRcptTo(address, _session, callback) {
      const rule = take(address.address, 'rcpt');
      rcptAttempts.push({
        address: address.address,
        accepted: !rule,
        ...(rule ? { response: `${rule.code} ${rule.message}` } : {}),
      });
      callback(rule ? smtpError(rule.code, rule.message) : null);
    },
    onData(stream, session, done) {
      inData += 1;
      maxInData = Math.max(maxInData, inData);
      const callback = (err: Error | null, reply?: string) => {
        const answer = () => {
          inData -= 1;
          done(err, reply);
        };
        if (replyDelayMs > 0) setTimeout(answer, replyDelayMs);
        else answer();
      };
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err: Error) => callback(err));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        for (const address of to) {
          const rule = take(address, 'data');
          if (rule) return callback(smtpError(rule.code, rule.message));
        }
        const mailFrom = session.envelope.mailFrom;
        const smtpUtf8 = (session.envelope as { smtpUtf8?: boolean }).smtpUtf8 === true;
        const message: ReceivedMessage = {
          from: mailFrom ? mailFrom.address : '',
          to,
          raw: options.keepRaw === false ? Buffer.alloc(0) : Buffer.concat(chunks),
          receivedAt: new Date(),
          arrivedAt: performance.now(),
          smtpUtf8,
        };
        messages.push(message);
        for (const address of to.map((a) => a.toLowerCase())) {
          perRecipient.set(address, (perRecipient.get(address) ?? 0) + 1);
          if (!firstTo.has(address)) firstTo.set(address, message);
        }
        for (const wake of waiters) wake();
        callback(null, 'Ok: queued');
      });
    },
  });
  server.on('error', () => undefined); // client resets are normal in failure tests

  // Resolves with what `probe` finds, checking again after each stored message.
  const waitFor = <T>(probe: () => T | undefined, timeoutMs: number, missing: () => string): Promise<T> => {
    const found = probe();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const wake = () => {
        const value = probe();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`smtp sink: ${missing()} after ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    rcptAttempts,
    perRecipient,
    failRecipient(address, failure) {
      rules.set(address.toLowerCase(), { ...failure, remaining: failure.times ?? Number.POSITIVE_INFINITY });
    },
    clearFailures(address) {
      if (address === undefined) rules.clear();
      else rules.delete(address.toLowerCase());
    },
    waitForMessages(count, timeoutMs = 10_000) {
      return waitFor(
        () => (messages.length >= count ? messages.slice() : undefined),
        timeoutMs,
        () => `${messages.length}/${count} messages`,
      );
    },
    waitForRecipient(address, timeoutMs = 10_000) {
      return waitFor(
        () => firstTo.get(address.toLowerCase()),
        timeoutMs,
        () => `no message to ${address}`,
      );
    },
    setReplyDelay(ms) {
      replyDelayMs = ms;
    },
    inData: () => inData,
    maxInData: () => maxInData,
    resetMaxInData() {
      maxInData = inData;
    },
    clear() {
      messages.length = 0;
      rcptAttempts.length = 0;
      perRecipient.clear();
      firstTo.clear();
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
