// Builds the final RFC 5322 message and DKIM-signs it: what the transports send, byte for byte.
import { domainOf } from '../lib/address-domain.ts';
import { isId } from '../lib/ids.ts';
import type { KeyObject } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailComposerAttachment } from 'nodemailer/lib/mail-composer';
import { buildMessageSync, dkimSignSync } from './compose-sync.ts';
import { loadPrivateKey } from './dkim-keys.ts';
import { findHeaderProblem, sanitizeFilename } from './headers.ts';

export interface MailAddress {
  email: string;
  name?: string;
}

export interface ComposeAttachment {
  filename: string;
  /** Base64 content. Paths and URLs are not accepted, by design. */
  content: string;
  contentType?: string;
  /** Content-ID: the part is inline, shown where the HTML says `cid:…`. */
  cid?: string;
}

export interface DkimSigningKey {
  /** d= : the sender's (verified) domain. */
  domainName: string;
  /** s= */
  keySelector: string;
  /** Decrypted PEM, or a KeyObject from loadPrivateKey (cheaper per message). */
  privateKey: string | KeyObject;
}

export interface ComposeInput {
  from: MailAddress;
  /** Several for one message to many (the envelope is the transport's). */
  to: MailAddress | MailAddress[];
  cc?: MailAddress[];
  replyTo?: MailAddress | MailAddress[];
  subject: string;
  html: string;
  text: string;
  /** `<random@sender-domain>` from createMessageId, stored by the caller so retries reuse it. */
  messageId: string;
  date?: Date;
  /**
   * The shared part of the MIME boundaries (random when absent). Derived from the email id, it makes a message
   * rebuilt later from what is stored byte-identical in its body to the one that was sent.
   */
  boundary?: string;
  /** Custom headers; names/values validated by the caller, refused here again if unsafe. */
  headers?: Record<string, string>;
  attachments?: ComposeAttachment[];
  /** Marketing mail: one-click unsubscribe URL → List-Unsubscribe + List-Unsubscribe-Post (RFC 8058). */
  listUnsubscribeUrl?: string;
  /** `a:b:c:SenderId` with stable, non-per-message parts. */
  feedbackId?: string;
  dkim: DkimSigningKey;
}

export class ComposeError extends Error {
  override name = 'ComposeError';
}

/** Headers the DKIM signature covers when present; RFC 8058 needs both List-Unsubscribe fields signed. */
export const DKIM_SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'To',
  'Cc',
  'Subject',
  'Date',
  'Message-ID',
  'In-Reply-To',
  'References',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'Feedback-ID',
] as const;

// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\r\n\u0000]/;
const MESSAGE_ID = /^<[^<>\s@]+@[A-Za-z0-9.-]+>$/;
// A plain character-class loop: a grouped `(?:…{4})*` overflows V8's regex stack on a 10 MB attachment.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;

/**
 * The Message-ID of a stored email on its sender's domain: `<email id@sender domain>`, the same on every
 * retry and nothing to store (emails made before migration 0009 keep the random one they stored). An email id
 * is no secret: the API shows it, and every link in the mail is signed.
 */
export function messageIdFor(email: { id: string; fromEmail: string; messageId?: string | null }): string {
  return email.messageId ?? `<${email.id}@${domainOf(email.fromEmail)}>`;
}

/** The email id inside a Message-ID made by messageIdFor; null for any other. */
export function emailIdInMessageId(messageId: string): string | null {
  const id = /^<([^<>@\s]+)@[^<>@\s]+>$/.exec(messageId.trim())?.[1];
  return id && isId(id) ? id.toLowerCase() : null;
}

function checkText(label: string, value: string | undefined): void {
  if (value !== undefined && UNSAFE_CHARS.test(value)) throw new ComposeError(`${label} contains CR, LF or NUL`);
}

function checkAddress(label: string, address: MailAddress): { name: string; address: string } {
  checkText(`${label} name`, address.name);
  checkText(`${label} address`, address.email);
  if (!/^[^\s<>,;"]+@[^\s<>,;"@]+$/.test(address.email)) throw new ComposeError(`${label} address is invalid`);
  return { name: address.name ?? '', address: address.email };
}

function checkListUnsubscribeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ComposeError('listUnsubscribeUrl is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ComposeError('listUnsubscribeUrl must be http(s)');
  if (/[\s<>,]/.test(url) || url.length > 900) throw new ComposeError('listUnsubscribeUrl cannot be used in a header');
  return url;
}

function toAttachments(attachments: ComposeAttachment[]): MailComposerAttachment[] {
  return attachments.map((a, i) => {
    const compact = typeof a.content === 'string' ? a.content.replace(/[\r\n\t ]+/g, '') : '';
    if (typeof a.content !== 'string' || compact.length % 4 !== 0 || !BASE64_CHARS.test(compact)) {
      throw new ComposeError(`attachment ${i + 1}: content must be base64`);
    }
    const contentType = a.contentType && CONTENT_TYPE.test(a.contentType) ? a.contentType.toLowerCase() : undefined;
    // Only `content`: never path/href, so nothing is read from disk or fetched.
    checkText(`attachment ${i + 1} Content-ID`, a.cid);
    const inline = a.cid ? { cid: a.cid, contentDisposition: 'inline' as const } : {};
    return {
      filename: sanitizeFilename(a.filename, i),
      content: Buffer.from(compact, 'base64'),
      contentType,
      ...inline,
    };
  });
}

function buildHeaders(input: ComposeInput): Record<string, string | { prepared: true; value: string }> {
  const headers: Record<string, string | { prepared: true; value: string }> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    const problem = findHeaderProblem(name, value);
    if (problem) throw new ComposeError(`header ${JSON.stringify(name)}: ${problem}`);
    headers[name] = value;
  }
  if (input.listUnsubscribeUrl !== undefined) {
    // `prepared`: emitted verbatim (already ASCII and checked), so the signed value is exactly this one.
    headers['List-Unsubscribe'] = { prepared: true, value: `<${checkListUnsubscribeUrl(input.listUnsubscribeUrl)}>` };
    headers['List-Unsubscribe-Post'] = { prepared: true, value: 'List-Unsubscribe=One-Click' };
  }
  if (input.feedbackId !== undefined) {
    if (!/^[\x21-\x7e]{1,200}$/.test(input.feedbackId)) throw new ComposeError('feedbackId must be printable ASCII');
    headers['Feedback-ID'] = input.feedbackId;
  }
  return headers;
}

/**
 * Signs a finished message with the sender domain's key; a message that could not be signed is an error, never sent
 * unsigned.
 */
export function dkimSign(message: Buffer, key: DkimSigningKey): Buffer {
  const privateKey = typeof key.privateKey === 'string' ? loadPrivateKey(key.privateKey) : key.privateKey;
  const signed = dkimSignSync(message, {
    domainName: key.domainName,
    keySelector: key.keySelector,
    privateKey,
    headerFieldNames: DKIM_SIGNED_HEADERS.join(':'),
  });
  if (!signed) throw new ComposeError('DKIM signing failed');
  return signed;
}

// One recipient's complete, DKIM-signed message.
export async function composeMessage(input: ComposeInput): Promise<Buffer> {
  const from = checkAddress('from', input.from);
  const list = (label: string, a: MailAddress | MailAddress[]) =>
    (Array.isArray(a) ? a : [a]).map((one) => checkAddress(label, one));
  const to = list('to', input.to);
  const cc = input.cc?.length ? list('cc', input.cc) : undefined;
  const replyTo = input.replyTo ? list('replyTo', input.replyTo) : undefined;
  checkText('subject', input.subject);
  if (!MESSAGE_ID.test(input.messageId)) throw new ComposeError('messageId must look like <id@domain>');
  // DMARC needs the DKIM domain aligned with From: the same domain or a parent of it.
  const fromDomain = domainOf(from.address);
  const signingDomain = input.dkim.domainName.toLowerCase();
  if (fromDomain !== signingDomain && !fromDomain.endsWith(`.${signingDomain}`)) {
    throw new ComposeError(`DKIM domain ${signingDomain} is not aligned with the From domain ${fromDomain}`);
  }

  const composer = new MailComposer({
    from,
    to,
    ...(cc ? { cc } : {}),
    replyTo,
    subject: input.subject,
    messageId: input.messageId,
    date: input.date ?? new Date(),
    ...(input.boundary ? { baseBoundary: input.boundary } : {}),
    text: input.text,
    html: input.html,
    attachments: toAttachments(input.attachments ?? []),
    headers: buildHeaders(input),
    disableFileAccess: true,
    disableUrlAccess: true,
    newline: 'win',
  });
  return dkimSign(buildMessageSync(composer.compile()), input.dkim);
}
