// Resend's broadcasts as Herald campaigns to a segment: bodies in, campaigns out. Resend's `{{{NAME|fallback}}}`
// variables are read as Liquid, and the preview text is the hidden preheader at the top of the HTML.
import { z } from 'zod';
import { validationError } from '../../lib/errors.ts';
import { singleLine } from '../templates/index.ts';
import { parseSender } from './resend.emails.map.ts';

const replyTo = z.union([z.string().min(3).max(320), z.array(z.string().min(3).max(320)).max(1)]);

export const resendBroadcastBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  segment_id: z.string().max(100).optional(),
  audience_id: z.string().max(100).optional().describe('The older name of `segment_id`'),
  from: z.string().min(3).max(500).describe('"Name <address>" or an address'),
  subject: singleLine(998).pipe(z.string().min(1)),
  html: z.string().min(1).max(1_000_000).optional(),
  text: z.string().min(1).max(1_000_000).optional(),
  reply_to: replyTo.optional().describe('One address (Herald campaigns have one reply-to)'),
  preview_text: singleLine(500).optional(),
  topic_id: z.string().max(100).nullable().optional(),
  send: z.boolean().optional().describe('Send (or schedule) it at once instead of keeping a draft'),
  scheduled_at: z.string().optional().describe('With `send`: when to send it, ISO 8601'),
});

export const resendBroadcastPatch = resendBroadcastBody.omit({ send: true, scheduled_at: true }).partial().optional();

export type ResendBroadcastBody = z.infer<typeof resendBroadcastBody>;

const status = z.enum(['draft', 'queued', 'sent']);

export const resendBroadcastSchema = z
  .object({
    object: z.literal('broadcast'),
    id: z.string(),
    name: z.string(),
    segment_id: z.string().nullable(),
    audience_id: z.string().nullable(),
    from: z.string().nullable(),
    subject: z.string().nullable(),
    reply_to: z.array(z.string()).nullable(),
    preview_text: z.string().nullable(),
    status,
    created_at: z.string(),
    scheduled_at: z.string().nullable(),
    sent_at: z.string().nullable(),
    topic_id: z.string().nullable(),
    html: z.string().nullable(),
    text: z.string().nullable(),
  })
  .meta({ id: 'ResendBroadcast' });

export const resendBroadcastItemSchema = resendBroadcastSchema.pick({
  id: true,
  name: true,
  audience_id: true,
  segment_id: true,
  status: true,
  created_at: true,
  scheduled_at: true,
  sent_at: true,
});

/** Resend's variables in Herald's Liquid names: the contact's fields, the unsubscribe link, any other property. */
const RESEND_VARIABLES: Record<string, string> = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  resend_unsubscribe_url: 'unsubscribeUrl',
  unsubscribe_url: 'unsubscribeUrl',
};

/** `{{{FIRST_NAME|there}}}` → `{{ firstName | default: "there" }}`; other `{{{key}}}` → `{{ key }}`. */
export function liquidOfResend(html: string): string {
  return html.replace(
    /\{\{\{\s*(?:contact\.)?([A-Za-z_][\w]*)\s*(?:\|([^}]*))?\}\}\}/g,
    (_, name: string, fallback: string | undefined) => {
      const key = RESEND_VARIABLES[name.toLowerCase()] ?? name;
      const value = fallback?.trim();
      return value ? `{{ ${key} | default: ${JSON.stringify(value)} }}` : `{{ ${key} }}`;
    },
  );
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');

const PREHEADER = /^<div data-preview-text="" style="[^"]*">([^<]*)<\/div>/;

/** The campaign body of a broadcast's content: its HTML (or its text, escaped), after its preview text. */
export function bodyOf(content: { html?: string | undefined; text?: string | undefined }, preview: string | null) {
  const html =
    content.html !== undefined
      ? liquidOfResend(content.html)
      : `<div style="white-space: pre-wrap">${escapeHtml(content.text ?? '')}</div>`;
  if (!preview) return html;
  const hidden = 'display:none;max-height:0;overflow:hidden;mso-hide:all';
  return `<div data-preview-text="" style="${hidden}">${escapeHtml(preview)}</div>${html}`;
}

/** A campaign body split back into the broadcast's preview text and HTML. */
export function splitBody(body: string): { preview: string | null; html: string } {
  const match = PREHEADER.exec(body);
  return match
    ? { preview: unescapeHtml(match[1]!), html: body.slice(match[0].length) }
    : { preview: null, html: body };
}

/** The reply-to of a broadcast: one address (a list of more is a 422). */
export function replyToOf(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 1) throw validationError('reply_to', 'Give one reply-to address', 'too_big');
  return list[0];
}

/** The sender fields of a `from`. */
export function senderOf(from: string): { from: string; fromName: string | null } {
  const sender = parseSender(from);
  return typeof sender === 'string' ? { from: sender, fromName: null } : { from: sender.email, fromName: sender.name };
}

interface CampaignView {
  id: string;
  name: string;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  segmentId: string | null;
  topicId: string | null;
  status: string;
  scheduledAt: string | null;
  sentAt: string | null;
  createdAt: string;
}

/** Resend's status of a campaign: not yet sent, on its way (scheduled included), or sent. */
function statusOf(campaign: CampaignView): z.infer<typeof status> {
  if (campaign.status === 'DRAFT') return 'draft';
  if (campaign.status === 'SENT') return 'sent';
  if (campaign.status === 'CANCELLED') return campaign.sentAt ? 'sent' : 'draft';
  return 'queued';
}

/** A Herald campaign as Resend's broadcast. */
export function toResendBroadcast(campaign: CampaignView): z.infer<typeof resendBroadcastSchema> {
  const { preview, html } = splitBody(campaign.body);
  return {
    object: 'broadcast',
    ...toResendBroadcastItem(campaign),
    from: campaign.fromName ? `${campaign.fromName} <${campaign.from}>` : campaign.from,
    subject: campaign.subject,
    reply_to: campaign.replyTo ? [campaign.replyTo] : null,
    preview_text: preview,
    topic_id: campaign.topicId,
    html,
    text: null,
  };
}

/** A Herald campaign as Resend lists broadcasts. */
export function toResendBroadcastItem(campaign: CampaignView): z.infer<typeof resendBroadcastItemSchema> {
  return {
    id: campaign.id,
    name: campaign.name,
    segment_id: campaign.segmentId,
    audience_id: campaign.segmentId,
    status: statusOf(campaign),
    created_at: campaign.createdAt,
    scheduled_at: campaign.scheduledAt,
    sent_at: campaign.sentAt,
  };
}
