// The SMTP transport's connections: nodemailer's SMTPConnection (the protocol: greeting, EHLO, STARTTLS, AUTH,
// pipelined envelope, dot-stuffing), pooled here for messages that are already built and signed. nodemailer's
// own pool sends through its Mailer, which composes every message again around the raw bytes (a MIME tree, a
// Message-ID, plugin streams) — about half of the transport's CPU for each message, for nothing.
// The pool keeps nodemailer's rules: up to `maxConnections` messages in flight, one per connection; a
// connection is closed after `maxMessages`; one that the server refused a message on is RSET and kept; a
// reused connection that turns out to be closed before a byte of the message was written is replaced and the
// message tried once more on a new one (servers close idle connections); any other failure closes it.
import { PassThrough } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { WeightedSemaphore } from '../../lib/weighted-semaphore.ts';
import type { SmtpLine } from '../transport.ts';

export interface SmtpPoolOptions {
  connection: SMTPConnection.Options;
  auth?: SMTPConnection.Credentials;
  maxConnections: number;
  maxMessages: number;
}

export type SmtpSendInfo = SMTPConnection.SentMessageInfo & { serverMessageId?: string; conversation?: SmtpLine[] };

interface Link {
  smtp: SMTPConnection;
  messages: number;
  /** The connection ended (server or socket): never handed a message again. */
  ended: boolean;
  /** The conversation since the connection opened (greeting, EHLO, STARTTLS, AUTH), then since its last message. */
  lines: SmtpLine[];
}

/** Commands written down as sent; anything else (AUTH's credentials, the message) is left out or cut. */
const KEPT_COMMAND = /^(EHLO|HELO|LHLO|STARTTLS|MAIL FROM|RCPT TO|DATA|BDAT|RSET|QUIT)\b/i;
const MAX_LINES = 40;

/**
 * A logger for nodemailer's transaction log that keeps the conversation on the link: the server's replies (a 334
 * challenge's payload left out) and Herald's commands, AUTH named by its mechanism only.
 */
function transcript(lines: SmtpLine[]) {
  const keep = (entry: { tnx?: string }, message: unknown) => {
    if (lines.length >= MAX_LINES || typeof message !== 'string') return;
    const line = message.slice(0, 500);
    if (entry.tnx === 'server') lines.push({ from: 'S', line: line.startsWith('334') ? '334' : line });
    else if (entry.tnx === 'client') {
      if (KEPT_COMMAND.test(line)) lines.push({ from: 'C', line });
      else if (/^AUTH\s/i.test(line)) lines.push({ from: 'C', line: line.split(/\s+/).slice(0, 2).join(' ') });
    }
  };
  const ignore = () => {};
  return { debug: keep, trace: ignore, info: ignore, warn: ignore, error: ignore, fatal: ignore };
}

/** The connection failed, as opposed to the server refusing what was sent over it. */
const connectionFailed = (error: SMTPConnection.SMTPError) =>
  error.responseCode === 421 || error.code === 'ECONNECTION' || error.code === 'ESOCKET' || error.code === 'ETIMEDOUT';

/** The server refused the envelope or the message, the session itself is fine. */
const messageRefused = (error: SMTPConnection.SMTPError) =>
  (error.code === 'EENVELOPE' || error.code === 'EMESSAGE') && error.responseCode !== 421;

export class SmtpPool {
  private readonly idle: Link[] = [];
  /** One place per send under way (each holds, or is opening, one connection), first come first served. */
  private readonly places: WeightedSemaphore;
  private closed = false;

  constructor(private readonly options: SmtpPoolOptions) {
    this.places = new WeightedSemaphore(options.maxConnections);
  }

  /** Hands `raw` over with this envelope; resolves with the server's answer, rejects with nodemailer's error. */
  async send(envelope: SMTPConnection.Envelope, raw: Buffer): Promise<SmtpSendInfo> {
    if (this.closed) throw Object.assign(new Error('the SMTP transport is closed'), { code: 'ECONNECTION' });
    await this.places.take(1);
    try {
      for (let attempt = 0; ; attempt++) {
        const link = this.idle.pop() ?? (await this.open());
        const reused = link.messages > 0;
        if (reused) link.lines.length = 0;
        link.messages++;
        const message = new PassThrough();
        message.end(raw);
        try {
          // A copy each time: SMTPConnection writes the envelope's state (its errors too) onto the object it is given.
          const fresh = { ...envelope, to: Array.isArray(envelope.to) ? [...envelope.to] : envelope.to };
          const info = await new Promise<SmtpSendInfo>((resolve, reject) =>
            link.smtp.send(fresh, message, (error, result) => (error ? reject(error) : resolve(result))),
          );
          this.release(link);
          return { ...info, conversation: [...link.lines] };
        } catch (error) {
          const failure = error as SMTPConnection.SMTPError & { conversation?: SmtpLine[] };
          failure.conversation = [...link.lines];
          if (reused && attempt === 0 && !message.readableDidRead && connectionFailed(failure)) {
            this.discard(link);
            continue;
          }
          // Refused: the session is fine once RSET (awaited, so the next message finds the connection idle).
          if (messageRefused(failure) && !link.ended) await this.reset(link);
          else this.discard(link);
          throw error;
        }
      }
    } finally {
      this.places.release(1);
    }
  }

  /** Opens a connection of its own (greeting, EHLO, STARTTLS, AUTH) and quits it; rejects as a send would. */
  async verify(): Promise<void> {
    const link = await this.open();
    this.discard(link);
  }

  /** Closes idle connections now and busy ones once their message is through. */
  close(): void {
    this.closed = true;
    for (const link of this.idle.splice(0)) link.smtp.quit();
  }

  private async open(): Promise<Link> {
    const lines: SmtpLine[] = [];
    const smtp = new SMTPConnection({ ...this.options.connection, transactionLog: true, logger: transcript(lines) });
    const link: Link = { smtp, messages: 0, ended: false, lines };
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        if (error) {
          smtp.close();
          reject(Object.assign(error, { conversation: [...lines] }));
        } else {
          resolve();
        }
      };
      // Always listened to: an idle connection's reset or timeout must not become an uncaught 'error'.
      smtp.on('error', (error) => settle(error));
      smtp.once('end', () => {
        link.ended = true;
        const at = this.idle.indexOf(link);
        if (at >= 0) this.idle.splice(at, 1);
        settle(Object.assign(new Error('Connection closed before it was ready'), { code: 'ECONNECTION' }));
      });
      smtp.connect((error) => {
        if (error) return settle(error);
        const { auth } = this.options;
        if (!auth || !(smtp as SMTPConnection & { allowsAuth?: boolean }).allowsAuth) return settle();
        smtp.login(auth, (loginError) => settle(loginError ?? undefined));
      });
    });
    return link;
  }

  /** RSET, then idle again; a connection that ends before the answer (RSET's callback never comes then) is gone. */
  private reset(link: Link): Promise<void> {
    return new Promise<void>((resolve) => {
      const ended = () => resolve();
      link.smtp.once('end', ended);
      link.smtp.reset((error) => {
        link.smtp.off('end', ended);
        if (error) this.discard(link);
        else this.release(link);
        resolve();
      });
    });
  }

  private release(link: Link): void {
    if (link.ended) return;
    if (this.closed || link.messages >= this.options.maxMessages) link.smtp.quit();
    else this.idle.push(link);
  }

  private discard(link: Link): void {
    link.ended = true;
    link.smtp.close();
  }
}
