// The one interface every delivery path implements, and the failure type the send worker branches on.

export interface TransportMessage {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO): one, or all of a message to several (cc/bcc). */
  to: string | string[];
  /** The complete, DKIM-signed message from composeMessage. */
  raw: Buffer;
  emailId: string;
}

/** One line of an SMTP conversation: the command Herald sent (credentials and the message left out) or the reply. */
export interface SmtpLine {
  /** `C` for Herald's command, `S` for the server's reply. */
  from: 'C' | 'S';
  line: string;
}

export interface TransportResult {
  /** Id the provider gave the message (SES MessageId, SMTP queue id when reported). */
  messageId?: string;
  /** Raw provider reply, e.g. `250 2.0.0 Ok: queued as ABC`. */
  response?: string;
  /** The SMTP conversation that carried it (SMTP transports). */
  conversation?: SmtpLine[];
}

export interface Transport {
  name: string;
  /**
   * The provider's later reports (deliveries, bounces, complaints) name a message by the id it gave it
   * (`TransportResult.messageId`), which is then kept with the email; reports naming any other id are ignored.
   */
  reportsByMessageId?: boolean;
  send(msg: TransportMessage): Promise<TransportResult>;
  close(): Promise<void>;
  /**
   * Opens one connection (with AUTH) or makes one signed request, and closes it: resolves when the transport can
   * take mail, rejects with a DeliveryError saying why not. Sends nothing.
   */
  verify(): Promise<void>;
  /** The message as it was handed over, for transports that keep it (outbox); null when it is not there. */
  readMessage?(emailId: string): Promise<Buffer | null>;
}

export type DeliveryErrorKind = 'temporary' | 'permanent';

export interface DeliveryErrorOptions {
  kind: DeliveryErrorKind;
  responseCode?: number;
  enhancedCode?: string;
  suppress?: boolean;
  /** The SMTP command or API operation that failed. */
  command?: string;
  response?: string;
  cause?: unknown;
  /**
   * The transport itself failed (refused or timed-out connection, TLS, AUTH, a 421 greeting, a dropped connection,
   * the provider's service failing), as opposed to a reply about this message. These count towards taking the
   * transport down, and the message may go to a fallback: it was not accepted.
   */
  connection?: boolean;
  /** The SMTP conversation up to the failure (SMTP transports). */
  conversation?: SmtpLine[];
}

// temporary → DEFERRED and retried; permanent → BOUNCED/FAILED; suppress → add the recipient to the suppression list.
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  readonly kind: DeliveryErrorKind;
  readonly responseCode?: number;
  readonly enhancedCode?: string;
  readonly suppress: boolean;
  readonly command?: string;
  readonly response?: string;
  readonly connection: boolean;
  readonly conversation?: SmtpLine[];

  constructor(message: string, options: DeliveryErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.responseCode = options.responseCode;
    this.enhancedCode = options.enhancedCode;
    // Only a permanent failure can suppress; a retryable one says nothing final about the mailbox.
    this.suppress = options.kind === 'permanent' && options.suppress === true;
    this.command = options.command;
    this.response = options.response;
    this.connection = options.kind === 'temporary' && options.connection === true;
    this.conversation = options.conversation;
  }
}

// `550 5.1.1 <x>: user unknown` → "5.1.1" (RFC 3463); undefined when the reply has no enhanced code.
export function parseEnhancedCode(response: string | undefined): string | undefined {
  if (!response) return undefined;
  const m = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(response.trim());
  return m?.[1];
}

/**
 * Whether a permanent reply is about the recipient's mailbox (suppress it) rather than about the sender,
 * the content or policy. X.1.x address errors (except 5.1.7/5.1.8: the sender's address) and
 * 5.2.1 (mailbox disabled) suppress; 5.7.x policy/authentication, 5.2.2 (mailbox full), 5.3–5.6 do not.
 * A bare 550/551/553 to RCPT TO (no enhanced code) is read as RFC 5321's "mailbox unavailable".
 */
export function isRecipientFailure(
  responseCode: number | undefined,
  enhancedCode: string | undefined,
  command?: string,
): boolean {
  if (enhancedCode) {
    const [cls, subject, detail] = enhancedCode.split('.').map(Number);
    if (cls !== 5) return false;
    if (subject === 1) return detail !== 7 && detail !== 8;
    return subject === 2 && detail === 1;
  }
  return /^RCPT/i.test(command ?? '') && (responseCode === 550 || responseCode === 551 || responseCode === 553);
}
