// What the relay reads from a submitted message before it is queued: the header From (the sender Herald checks and
// signs for), the Subject, and the fields Herald reads and removes (Idempotency-Key, X-Herald-Tracking, Bcc). The
// rest of the message is kept byte for byte. A message that is not a readable RFC 5322 message is refused here.
import { parseAddress } from '../../lib/email-address.ts';
import { fieldValue, joinMessage, splitMessage, withCrlf } from '../../mail/mime-headers.ts';
import { smtpError } from '../../net/smtp-connections.ts';

export interface Submission {
  from: { email: string; name: string | null };
  subject: string;
  idempotencyKey: string | null;
  /** X-Herald-Tracking: true or false; absent: the project's tracking setting decides. */
  tracking: boolean | undefined;
  /** The message to send, without the fields read and removed here. */
  mime: Buffer;
}

/** Fields Herald reads and removes, and Bcc (a recipient must never see who else got a copy). */
const REMOVED = new Set(['idempotency-key', 'x-herald-tracking', 'bcc', 'resent-bcc']);

/** The header section (up to the blank line) is at most this long: real ones are a few kilobytes. */
export const MAX_HEADER_BYTES = 1024 * 1024;

const invalid = (message: string) => smtpError(554, `5.6.0 ${message}`);

/** Where the header section ends: the first blank line, or the end of a message without a body. */
function headerEnd(raw: Buffer): number {
  const ends = [raw.indexOf('\r\n\r\n'), raw.indexOf('\n\n')].filter((at) => at !== -1);
  return ends.length > 0 ? Math.min(...ends) : raw.length;
}

/** Reads a submitted message; throws the SMTP answer for one that cannot be sent. */
export async function readSubmission(raw: Buffer): Promise<Submission> {
  if (raw.includes(0)) throw invalid('The message contains a NUL byte');
  if (headerEnd(raw) > MAX_HEADER_BYTES)
    throw invalid(`The header section is longer than ${MAX_HEADER_BYTES / 1024} KB`);
  const message = withCrlf(raw);
  const { fields, body } = splitMessage(message);
  const head = message.subarray(0, message.length - body.length);
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(head.toString('latin1'))) {
    throw smtpError(
      554,
      '5.6.7 Header fields must be ASCII (encode non-ASCII text as RFC 2047 encoded ' +
        'words); this server does not offer SMTPUTF8',
    );
  }
  for (const field of fields) {
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(field.raw.slice(0, Math.max(0, field.raw.indexOf(':'))))) {
      throw invalid(`Malformed header line: ${JSON.stringify(field.raw.slice(0, 60))}`);
    }
  }
  const fromFields = fields.filter((f) => f.name === 'from');
  if (fromFields.length !== 1)
    throw invalid(
      fromFields.length === 0 ? 'The message has no From header' : 'The message has more than one From header',
    );
  const keyField = fields.find((f) => f.name === 'idempotency-key');
  const idempotencyKey = keyField ? fieldValue(keyField) : null;
  if (idempotencyKey !== null && !/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(idempotencyKey)) {
    throw invalid('Idempotency-Key must be 1-255 printable ASCII characters');
  }
  const trackingField = fields.find((f) => f.name === 'x-herald-tracking');
  const tracking = trackingField ? fieldValue(trackingField).toLowerCase() === 'true' : undefined;

  const { simpleParser } = await import('mailparser'); // loaded on first use: large, and only the relay needs it
  const parsed = await simpleParser(head, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const from = parsed.from?.value ?? [];
  if (from.length !== 1 || !from[0]!.address)
    throw smtpError(550, '5.1.7 The From header must hold exactly one address');
  const address = parseAddress(from[0]!.address);
  if (!address.ok) throw smtpError(550, `5.1.7 The From address ${JSON.stringify(from[0]!.address)} is invalid`);
  return {
    from: { email: from[0]!.address, name: from[0]!.name || null },
    // eslint-disable-next-line no-control-regex
    subject: (parsed.subject ?? '').replace(/[\r\n\u0000]+/g, ' ').slice(0, 2000),
    idempotencyKey,
    tracking,
    mime: joinMessage(
      fields.filter((f) => !REMOVED.has(f.name)),
      body,
    ),
  };
}
