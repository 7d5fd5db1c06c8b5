// A message submitted over SMTP, made ready to send: the client's MIME as written (parts, encodings, To and Cc),
// with Herald's Message-ID, a Date when the client set none, Feedback-ID, and the DKIM signature. Only a message
// with open and click tracking is rebuilt, because its HTML changes.
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailComposerAttachment } from 'nodemailer/lib/mail-composer';
import { ComposeError, dkimSign, type DkimSigningKey } from './compose.ts';
import { buildMessageSync } from './compose-sync.ts';
import { joinMessage, splitMessage, withCrlf, type HeaderField } from './mime-headers.ts';

export interface MimeComposeInput {
  /** The client's message (CRLF), without the fields the relay read and removed. */
  mime: Uint8Array;
  messageId: string;
  feedbackId?: string;
  date?: Date;
  /** Rewrites the HTML part (tracking pixel and links); the message is rebuilt around the new HTML. */
  rewriteHtml?: (html: string) => string;
  dkim: DkimSigningKey;
}

/** Fields Herald sets on every copy: a client's own would be duplicated or would no longer verify. */
const REPLACED = new Set(['message-id', 'dkim-signature', 'feedback-id', 'return-path', 'bcc', 'resent-bcc']);

/** The message with its HTML rewritten: parsed and composed again, every other field kept as written. */
async function rebuiltWithHtml(mime: Buffer, rewrite: (html: string) => string): Promise<Buffer> {
  // Loaded on first use: mailparser is large (≈ 20 MB in each compose thread), and campaign mail never needs it.
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(mime, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  if (typeof parsed.html !== 'string') return mime;
  const headers: Record<string, { prepared: true; value: string }[]> = {};
  for (const field of splitMessage(mime).fields) {
    if (field.name.startsWith('content-') || field.name === 'mime-version' || REPLACED.has(field.name)) continue;
    const name = field.raw.slice(0, field.raw.indexOf(':'));
    (headers[name] ??= []).push({ prepared: true, value: field.raw.slice(name.length + 1).trim() });
  }
  const attachments: MailComposerAttachment[] = parsed.attachments.map((a) => ({
    content: a.content,
    contentType: a.contentType,
    ...(a.filename ? { filename: a.filename } : {}),
    ...(a.cid ? { cid: a.cid } : {}),
    contentDisposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
  }));
  const composer = new MailComposer({
    headers: headers as unknown as Record<string, string>,
    html: rewrite(parsed.html),
    ...(parsed.text !== undefined ? { text: parsed.text } : {}),
    attachments,
    disableFileAccess: true,
    disableUrlAccess: true,
    newline: 'win',
  });
  return buildMessageSync(composer.compile());
}

/**
 * A submitted message's subject and bodies as its recipients read them (for viewing; nothing is re-encoded).
 * `textFromHtml: false` leaves `text` empty for a message with only HTML (converting it costs the most).
 */
export async function mimeBody(
  mime: Uint8Array,
  opts: { textFromHtml?: boolean } = {},
): Promise<{ subject: string; html: string; text: string }> {
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(Buffer.from(mime), {
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    skipHtmlToText: opts.textFromHtml === false,
  });
  return {
    subject: parsed.subject ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    text: parsed.text ?? '',
  };
}

/** One recipient's copy of a submitted message, signed. */
export async function composeMimeMessage(input: MimeComposeInput): Promise<Buffer> {
  if (!/^<[^<>\s@]+@[A-Za-z0-9.-]+>$/.test(input.messageId))
    throw new ComposeError('messageId must look like <id@domain>');
  let mime = withCrlf(input.mime);
  if (input.rewriteHtml) mime = await rebuiltWithHtml(mime, input.rewriteHtml);
  const { fields, body } = splitMessage(mime);
  const kept = fields.filter((f) => !REPLACED.has(f.name));
  const added: HeaderField[] = [{ name: 'message-id', raw: `Message-ID: ${input.messageId}` }];
  if (!kept.some((f) => f.name === 'date'))
    added.push({ name: 'date', raw: `Date: ${(input.date ?? new Date()).toUTCString().replace('GMT', '+0000')}` });
  if (input.feedbackId !== undefined) {
    if (!/^[\x21-\x7e]{1,200}$/.test(input.feedbackId)) throw new ComposeError('feedbackId must be printable ASCII');
    added.push({ name: 'feedback-id', raw: `Feedback-ID: ${input.feedbackId}` });
  }
  return dkimSign(joinMessage([...added, ...kept], body), input.dkim);
}
