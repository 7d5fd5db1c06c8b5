// Resend's email bodies as Herald's send bodies, and Herald's email records in Resend's shape.
import { z } from 'zod';
import { AppError, validationError } from '../../lib/errors.ts';
import type { EmailDetail, EmailView } from '../emails/index.ts';
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

/** The most variables a template reads, and the longest string a variable holds (Resend's limits). */
export const MAX_VARIABLES = 50;
export const MAX_VALUE_LENGTH = 2000;

/** A template variable's name: letters, digits and `_`, as Resend allows. */
export const VARIABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

/** A template send's variables: Resend's names and values (a string or a number). */
const templateVariablesSchema = z
  .record(
    z.string().regex(VARIABLE_KEY, 'use 1-50 letters, digits or _'),
    z.union([z.string().max(MAX_VALUE_LENGTH), z.number()]),
  )
  .refine((value) => Object.keys(value).length <= MAX_VARIABLES, { error: `at most ${MAX_VARIABLES} variables` });

export const resendEmailBody = z.object({
  from: z
    .string()
    .min(3)
    .max(500)
    .optional()
    .describe(
      '"Name <address>" or an address; with a template, its own; without either, the project\'s default sender ' +
        '(422 when it has none)',
    ),
  to: addresses,
  subject: singleLine(998).optional().describe("With a template, the template's own unless given"),
  html: z.string().max(2_000_000).optional(),
  text: z.string().max(2_000_000).optional(),
  cc: addresses.optional(),
  bcc: addresses.optional(),
  reply_to: addresses.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  attachments: z.array(resendAttachment).max(10).optional(),
  tags: z
    .array(z.object({ name: z.string(), value: z.string() }))
    .max(20)
    .optional(),
  scheduled_at: z.string().optional(),
  template: z
    .object({ id: z.string().min(1).max(100), variables: templateVariablesSchema.optional() })
    .optional()
    .describe('A published template (its id) rendered with these variables, instead of `html` and `text`'),
});

export type ResendEmailBody = z.infer<typeof resendEmailBody>;

/** `"Ann <ann@example.com>"` → `{name: 'Ann', email}`; a bare address → the address. */
export function parseSender(from: string): string | { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(from);
  if (!match) return from.trim();
  return match[1] ? { name: match[1], email: match[2]! } : match[2]!;
}

/** The fields every Resend send gives Herald's, with or without a template. */
function commonFields(body: ResendEmailBody) {
  const attachments = (body.attachments ?? []).map((a, i) => {
    if (a.path !== undefined || a.content === undefined)
      throw validationError(
        `attachments.${i}.content`,
        'Give the file as base64 `content`; remote `path` files are not fetched',
        'required',
      );
    if (a.filename === undefined) throw validationError(`attachments.${i}.filename`, 'Give a filename', 'required');
    return {
      filename: a.filename,
      content: a.content,
      ...(a.content_type ? { contentType: a.content_type } : {}),
      ...(a.content_id ? { contentId: a.content_id } : {}),
    };
  });
  return {
    to: body.to,
    ...(body.cc !== undefined ? { cc: body.cc } : {}),
    ...(body.bcc !== undefined ? { bcc: body.bcc } : {}),
    ...(body.from !== undefined ? { from: parseSender(body.from) } : {}),
    ...(body.reply_to !== undefined ? { replyTo: body.reply_to } : {}),
    ...(body.headers ? { headers: body.headers } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(body.tags ? { tags: body.tags } : {}),
    ...(body.scheduled_at !== undefined ? { scheduledAt: body.scheduled_at } : {}),
  };
}

/**
 * A send with a template: its published version rendered with the variables (Liquid); `from`, `subject` and
 * `reply_to` given here win over the template's. A subject given here is sent as written.
 */
function templateSendBody(body: ResendEmailBody, template: NonNullable<ResendEmailBody['template']>): SendBody {
  for (const field of ['html', 'text'] as const)
    if (body[field] !== undefined)
      throw validationError(field, `${field}: a send with a template takes no html or text`, 'not_allowed');
  const variables = template.variables ?? {};
  if (body.subject !== undefined && variables.resend !== undefined)
    throw validationError('template.variables.resend', 'template.variables.resend: reserved with a `subject`');
  return checked({
    ...commonFields(body),
    template: template.id,
    data: body.subject === undefined ? variables : { ...variables, resend: { subject: body.subject } },
    ...(body.subject !== undefined ? { subject: '{{ resend.subject | raw }}' } : {}),
  });
}

/** The send body of a Resend email: one message to every address, as Resend sends it. */
export function toSendBody(body: ResendEmailBody): SendBody {
  if (body.template) return templateSendBody(body, body.template);
  if (body.subject === undefined) throw validationError('subject', 'subject: give a subject', 'required');
  if (body.html === undefined && body.text === undefined)
    throw validationError('html', 'Give `html` or `text`', 'required');
  // Resend's html and subject are sent as they are, not as Liquid templates: they are variables output raw. A
  // text-only email gets an HTML part too (every Herald message has one): the text, escaped, its lines kept.
  const html =
    body.html === undefined ? '<div style="white-space: pre-wrap">{{ resend.text }}</div>' : '{{ resend.html | raw }}';
  return checked({
    ...commonFields(body),
    subject: '{{ resend.subject | raw }}',
    body: html,
    data: { resend: { subject: body.subject, html: body.html, text: body.text } },
    ...(body.text !== undefined ? { text: body.text } : {}),
  });
}

/** Herald's send fields by the Resend field they came from. */
const RESEND_FIELDS: Record<string, string> = {
  replyTo: 'reply_to',
  contentType: 'content_type',
  contentId: 'content_id',
  scheduledAt: 'scheduled_at',
};

/** The body checked by Herald's own send schema; a problem is a 422 on the Resend field it came from. */
function checked(body: unknown): SendBody {
  const parsed = sendBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((part) => RESEND_FIELDS[String(part)] ?? String(part)).join('.');
  throw validationError(field, `${field}: ${issue.message}`);
}

export const lastEvent = z.enum([
  'queued',
  'scheduled',
  'sent',
  'delivered',
  'delivery_delayed',
  'bounced',
  'complained',
  'opened',
  'clicked',
  'canceled',
  'failed',
  'suppressed',
]);

/** Resend's `last_event` of a Herald status; a sent or delivered email that was opened or clicked says so. */
export function lastEventOf(email: Pick<EmailView, 'status' | 'openedAt' | 'clickedAt'>): z.infer<typeof lastEvent> {
  switch (email.status) {
    case 'SCHEDULED':
      return 'scheduled';
    case 'QUEUED':
    case 'SENDING':
      return 'queued';
    case 'SENT':
    case 'DELIVERED':
      if (email.clickedAt) return 'clicked';
      if (email.openedAt) return 'opened';
      return email.status === 'SENT' ? 'sent' : 'delivered';
    case 'DEFERRED':
      return 'delivery_delayed';
    case 'BOUNCED':
      return 'bounced';
    case 'COMPLAINED':
      return 'complained';
    case 'FAILED':
      return 'failed';
    case 'SUPPRESSED':
      return 'suppressed';
    case 'CANCELLED':
      return 'canceled';
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

export const resendEmailSchema = resendEmailItemSchema
  .extend({
    object: z.literal('email'),
    html: z.string().nullable(),
    text: z.string().nullable(),
    tags: z.array(z.object({ name: z.string(), value: z.string() })),
  })
  .meta({ id: 'ResendEmail' });

const orNull = (list: string[]) => (list.length > 0 ? list : null);

/** A Herald email as Resend's list shows it. */
export function toResendEmailItem(
  email: EmailView,
  extra: { fromName?: string | null } = {},
): z.infer<typeof resendEmailItemSchema> {
  return {
    id: email.id,
    from: extra.fromName ? `${extra.fromName} <${email.from}>` : email.from,
    to: Array.isArray(email.to) ? email.to : [email.to],
    cc: orNull(email.cc),
    bcc: orNull(email.bcc),
    reply_to: orNull(email.replyTo),
    subject: email.subject,
    created_at: email.createdAt,
    scheduled_at: email.scheduledAt,
    last_event: lastEventOf(email),
    message_id: email.messageId,
  };
}

/** A Herald email, with its bodies, as Resend's GET /emails/{id} answers it. */
export function toResendEmail(detail: EmailDetail): z.infer<typeof resendEmailSchema> {
  return {
    object: 'email',
    ...toResendEmailItem(detail.email, detail),
    html: detail.html,
    text: detail.text,
    tags: detail.email.tags,
  };
}

/** The send bodies of a batch; a problem is a 422 whose field starts with the email's index (`3.to`). */
export function toSendBodies(bodies: ResendEmailBody[]): SendBody[] {
  return bodies.map((body, i) => {
    try {
      return toSendBody(body);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') throw error;
      const first = error.errors?.[0];
      throw first ? validationError(`${i}.${first.field}`, `${i}.${first.message}`, first.code) : error;
    }
  });
}
