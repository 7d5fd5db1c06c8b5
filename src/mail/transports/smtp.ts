// SMTP relay transport: a pool of nodemailer SMTP connections that sends the pre-built, signed message as is.
import type { SMTPPoolOptions } from 'nodemailer/lib/smtp-pool';
import type { NodemailerError } from 'nodemailer/lib/errors';
import { DeliveryError, isRecipientFailure, parseEnhancedCode } from '../transport.ts';
import type { SmtpLine, TransportMessage, TransportResult, Transport } from '../transport.ts';
import { SmtpPool } from './smtp-pool.ts';

export interface SmtpTransportOptions {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (implicit TLS). */
  url: string;
  maxConnections?: number;
  /** Messages per connection before it is recycled. */
  maxMessages?: number;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  /** Idle socket limit; keeps RFC 5321's 10 minutes for the final 250 by default. */
  socketTimeoutMs?: number;
}

const QUERY_FLAGS = ['requireTLS', 'ignoreTLS', 'rejectUnauthorized'] as const;

function parseFlag(name: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`SMTP URL: ${name} must be true or false`);
}

// Validates SMTP_URL at start-up and turns it into pool options; query: requireTLS, ignoreTLS,
// rejectUnauthorized, name (EHLO host), maxConnections.
export function parseSmtpUrl(url: string): SMTPPoolOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('SMTP URL is not a valid URL');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
    throw new Error('SMTP URL must start with smtp:// or smtps://');
  if (!parsed.hostname) throw new Error('SMTP URL has no host');
  const secure = parsed.protocol === 'smtps:';
  const options: SMTPPoolOptions = {
    pool: true,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
  };
  if (parsed.username || parsed.password) {
    options.auth = { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
  }
  for (const [key, value] of parsed.searchParams) {
    if (key === 'name') options.name = value;
    else if (key === 'maxConnections') options.maxConnections = Number(value);
    else if (key === 'rejectUnauthorized') options.tls = { rejectUnauthorized: parseFlag(key, value) };
    else if ((QUERY_FLAGS as readonly string[]).includes(key))
      options[key as 'requireTLS' | 'ignoreTLS'] = parseFlag(key, value);
    else throw new Error(`SMTP URL: unknown option ${JSON.stringify(key)}`);
  }
  if (
    options.maxConnections !== undefined &&
    !(Number.isInteger(options.maxConnections) && options.maxConnections > 0)
  ) {
    throw new Error('SMTP URL: maxConnections must be a positive integer');
  }
  return options;
}

const PERMANENT_COMMANDS = /^(MAIL|RCPT|DATA|BDAT)\b/i;

// Maps a nodemailer failure onto retry/bounce/suppress. Only replies to the mail transaction
// itself can bounce; a 5xx to AUTH, EHLO or STARTTLS is our configuration, so it is retried.
export function classifySmtpError(err: unknown): DeliveryError {
  const e = (err ?? {}) as NodemailerError & { rejectedErrors?: NodemailerError[]; conversation?: SmtpLine[] };
  // With one recipient, the per-recipient error carries the real reply.
  const detail = e.rejectedErrors?.[0] ?? e;
  const responseCode = detail.responseCode ?? e.responseCode;
  const response = detail.response ?? e.response;
  const command = detail.command ?? e.command;
  const enhancedCode = parseEnhancedCode(response);
  const message = response
    ? `SMTP ${command ?? ''} failed: ${response}`.replace(/\s+/g, ' ')
    : (e.message ?? String(err));
  // No reply at all (refused, timed out, dropped), or a failing reply outside the mail transaction (the greeting,
  // EHLO, STARTTLS, AUTH): the relay failed, not this message.
  const connection = responseCode === undefined ? e.code !== 'EENVELOPE' : !PERMANENT_COMMANDS.test(command ?? '');
  const base = { responseCode, enhancedCode, command, response, cause: err, connection, conversation: e.conversation };

  if (e.code === 'EAUTH' || e.code === 'ENOAUTH' || e.code === 'ETLS' || e.code === 'EREQUIRETLS') {
    return new DeliveryError(message, { ...base, kind: 'temporary' });
  }
  if (
    responseCode !== undefined &&
    responseCode >= 500 &&
    responseCode !== 503 &&
    PERMANENT_COMMANDS.test(command ?? '')
  ) {
    const suppress =
      /^(RCPT|DATA|BDAT)/i.test(command ?? '') && isRecipientFailure(responseCode, enhancedCode, command);
    return new DeliveryError(message, { ...base, kind: 'permanent', suppress });
  }
  if (responseCode === undefined && e.code === 'EENVELOPE') {
    // Rejected before any server reply (an address nodemailer refuses to put on the wire).
    return new DeliveryError(message, { ...base, kind: 'permanent' });
  }
  // 4xx, 503, connection refused/reset, timeouts, DNS: try again later.
  return new DeliveryError(message, { ...base, kind: 'temporary' });
}

// Pooled SMTP to a relay or smart host (SMTP_URL); envelope given explicitly, message bytes untouched.
export function createSmtpTransport(options: SmtpTransportOptions): Transport {
  const { host, port, secure, auth, name, tls, requireTLS, ignoreTLS, maxConnections } = parseSmtpUrl(options.url);
  const pool = new SmtpPool({
    connection: {
      host,
      port,
      secure,
      requireTLS,
      ignoreTLS,
      tls,
      name,
      logger: false,
      connectionTimeout: options.connectionTimeoutMs ?? 30_000,
      greetingTimeout: options.greetingTimeoutMs ?? 30_000,
      socketTimeout: options.socketTimeoutMs ?? 600_000,
    },
    ...(auth && 'user' in auth ? { auth: { user: auth.user ?? '', pass: auth.pass ?? '' } } : {}),
    maxConnections: options.maxConnections ?? maxConnections ?? 5,
    maxMessages: options.maxMessages ?? 100,
  });

  return {
    name: 'smtp',
    async send(msg: TransportMessage): Promise<TransportResult> {
      try {
        const to = Array.isArray(msg.to) ? msg.to : [msg.to];
        const info = await pool.send({ from: msg.from, to }, msg.raw);
        // A message to several is sent when the server takes any of them; a refused one is not retried.
        if (info.accepted.length === 0 || (to.length === 1 && info.rejected.length > 0)) {
          throw Object.assign(new Error('recipient rejected'), {
            code: 'EENVELOPE',
            rejectedErrors: info.rejectedErrors,
            conversation: info.conversation,
          });
        }
        return { messageId: info.serverMessageId, response: info.response, conversation: info.conversation };
      } catch (err) {
        throw err instanceof DeliveryError ? err : classifySmtpError(err);
      }
    },
    async verify(): Promise<void> {
      try {
        await pool.verify();
      } catch (err) {
        throw classifySmtpError(err);
      }
    },
    async close(): Promise<void> {
      pool.close();
    },
  };
}
