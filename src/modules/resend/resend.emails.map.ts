// Resend's email bodies as Herald's send bodies, and Herald's email records in Resend's shape.
import { z } from 'zod';
import { validationError } from '../../lib/errors.ts';
import type { EmailDetail, EmailView } from '../delivery/index.ts';
import { sendBody, type SendBody } from '../send/index.ts';
import { singleLine } from '../templates/index.ts';

const addresses = z.union([z.string().min(1).max(320), z.array(z.string().min(1).max(320)).min(1).max(50)]);

export const resendAttachment = z.object({
  filename: z.string().min(1).max(255).optional(),
  content: z.string().min(1).optional().describe('Base64-encoded file content'),
  path: z.string().optional().describe('Not supported: Herald does not fetch remote files; send `content`'),
  content_type: z.string().max(255).optional(),
  content_id: z.string().max(127).optional(),
});

export const resendEmailBody = z.object({
  from: z.string().min(3).max(500).describe('"Name <address>" or an address'),
  to: addresses,
  subject: singleLine(998),
  html: z.string().max(2_000_000).optional(),
  text: z.string().max(2_000_000).optional(),
  cc: addresses.optional(),
  bcc: addresses.optional(),
  reply_to: addresses.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  attachments: z.array(resendAttachment).max(10).optional(),
  tags: z.array(z.object({ name: z.string(), value: z.string() })).max(20).optional(),
  scheduled_at: z.string().optional(),
});

export type ResendEmailBody = z.infer<typeof resendEmailBody>;

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** `"Ann <ann@example.com>"` → `{name: 'Ann', email}`; a bare address → the address. */
export function parseSender(from: string): string | { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(from);
  if (!match) return from.trim();
  return match[1] ? { name: match[1], email: match[2]! } : match[2]!;
}

/** The send body of a Resend email; what Herald's send does not take yet is a 422 naming the field. */
export function toSendBody(body: ResendEmailBody): SendBody {
  const to = list(body.to);
  if (to.length > 1) throw validationError('to', 'Sending one message to several recipients is not supported yet: send one email per recipient', 'unsupported');
  for (const field of ['cc', 'bcc', 'tags', 'scheduled_at'] as const) {
    if (body[field] !== undefined) throw validationError(field, `\`${field}\` is not supported yet`, 'unsupported');
  }
  const replyTo = list(body.reply_to);
  if (replyTo.length > 1) throw validationError('reply_to', 'Only one reply_to address is supported yet', 'unsupported');
  if (body.html === undefined) throw validationError('html', body.text === undefined ? 'Give `html`' : 'A text-only email is not supported yet: give `html`', 'required');
  const attachments = (body.attachments ?? []).map((a, i) => {
    if (a.path !== undefined || a.content === undefined) throw validationError(`attachments.${i}.content`, 'Give the file as base64 `content`; remote `path` files are not fetched', 'required');
    if (a.content_id !== undefined) throw validationError(`attachments.${i}.content_id`, 'Inline attachments (`content_id`) are not supported yet', 'unsupported');
    if (a.filename === undefined) throw validationError(`attachments.${i}.filename`, 'Give a filename', 'required');
    return { filename: a.filename, content: a.content, ...(a.content_type ? { contentType: a.content_type } : {}) };
  });
  // Resend's html and subject are sent as they are, not as Liquid templates: they are variables output raw.
  return checked({
    to: to[0]!,
    from: parseSender(body.from),
    subject: '{{ resend.subject | raw }}',
    body: '{{ resend.html | raw }}',
    data: { resend: { subject: body.subject, html: body.html } },
    ...(replyTo[0] ? { reply: replyTo[0] } : {}),
    ...(body.headers ? { headers: body.headers } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
  });
}

/** Herald's send fields by the Resend field they came from. */
const RESEND_FIELDS: Record<string, string> = { reply: 'reply_to', contentType: 'content_type' };

/** The body checked by Herald's own send schema; a problem is a 422 on the Resend field it came from. */
function checked(body: unknown): SendBody {
  const parsed = sendBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((part) => RESEND_FIELDS[String(part)] ?? String(part)).join('.');
  throw validationError(field, `${field}: ${issue.message}`);
}

export const lastEvent = z.enum(['queued', 'scheduled', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained', 'opened', 'clicked', 'canceled', 'failed', 'suppressed']);

/** Resend's `last_event` of a Herald status; a sent or delivered email that was opened or clicked says so. */
export function lastEventOf(email: Pick<EmailView, 'status' | 'openedAt' | 'clickedAt'>): z.infer<typeof lastEvent> {
  switch (email.status) {
    case 'QUEUED': case 'SENDING': return 'queued';
    case 'SENT': case 'DELIVERED':
      if (email.clickedAt) return 'clicked';
      if (email.openedAt) return 'opened';
      return email.status === 'SENT' ? 'sent' : 'delivered';
    case 'DEFERRED': return 'delivery_delayed';
    case 'BOUNCED': return 'bounced';
    case 'COMPLAINED': return 'complained';
    case 'FAILED': return 'failed';
    case 'SUPPRESSED': return 'suppressed';
    case 'CANCELLED': return 'canceled';
  }
}

export const resendEmailItemSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()).nullable(),
  bcc: z.array(z.string()).nullable(),
  reply_to: z.array(z.string()).nullable(),
  subject: z.string(),
  created_at: z.string(),
  scheduled_at: z.string().nullable(),
  last_event: lastEvent,
  message_id: z.string(),
});

export const resendEmailSchema = resendEmailItemSchema.extend({
  object: z.literal('email'),
  html: z.string().nullable(),
  text: z.string().nullable(),
  tags: z.array(z.object({ name: z.string(), value: z.string() })),
}).meta({ id: 'ResendEmail' });

/** A Herald email as Resend's list shows it. */
export function toResendEmailItem(email: EmailView, extra: { fromName?: string | null; replyTo?: string | null } = {}): z.infer<typeof resendEmailItemSchema> {
  return {
    id: email.id,
    from: extra.fromName ? `${extra.fromName} <${email.from}>` : email.from,
    to: [email.to],
    cc: null,
    bcc: null,
    reply_to: extra.replyTo ? [extra.replyTo] : null,
    subject: email.subject,
    created_at: email.createdAt,
    scheduled_at: null,
    last_event: lastEventOf(email),
    message_id: email.messageId,
  };
}

/** A Herald email, with its bodies, as Resend's GET /emails/{id} answers it. */
export function toResendEmail(detail: EmailDetail): z.infer<typeof resendEmailSchema> {
  return { object: 'email', ...toResendEmailItem(detail.email, detail), html: detail.html, text: detail.text, tags: [] };
}
