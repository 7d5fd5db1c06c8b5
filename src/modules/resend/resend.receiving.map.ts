// Herald's received messages in Resend's shape: addresses as strings, the envelope recipients as `received_for`,
// attachments with their disposition (inline when the part has a Content-ID).
import { z } from 'zod';
import type { InboundSummary, InboundView } from '../inbound/index.ts';

export const resendInboundAttachmentSchema = z.object({
  id: z.string(),
  filename: z.string().nullable(),
  size: z.number().int(),
  content_type: z.string(),
  content_id: z.string().nullable(),
  content_disposition: z.enum(['inline', 'attachment']),
});

export const resendReceivedItemSchema = z.object({
  id: z.string(),
  to: z.array(z.string()),
  from: z.string(),
  created_at: z.string(),
  subject: z.string(),
  bcc: z.null().describe('Always null: a received message shows no Bcc'),
  cc: z.array(z.string()).nullable(),
  reply_to: z.array(z.string()).nullable(),
  received_for: z.array(z.string()).describe("The envelope recipients (RCPT TO) at the project's domains"),
  message_id: z.string(),
  attachments: z.array(resendInboundAttachmentSchema),
});

const signedLink = z.object({
  download_url: z.string().describe('A signed link that works without a key for an hour'),
  expires_at: z.string(),
});

export const resendReceivedSchema = resendReceivedItemSchema
  .extend({
    object: z.literal('email'),
    html: z.string().nullable(),
    text: z.string().nullable(),
    headers: z.record(z.string(), z.string()).nullable(),
    raw: signedLink.nullable().describe('The message as received; null once retention deleted it'),
  })
  .meta({ id: 'ResendReceivedEmail' });

export const resendAttachmentSchema = signedLink
  .extend({
    object: z.literal('attachment'),
    id: z.string(),
    filename: z.string().optional(),
    size: z.number().int(),
    content_type: z.string(),
    content_disposition: z.enum(['inline', 'attachment']),
    content_id: z.string().optional(),
  })
  .meta({ id: 'ResendAttachment' });

export type SignedLink = z.infer<typeof signedLink>;
type Address = { email: string; name: string };

const shown = (a: Address) => (a.name ? `${a.name} <${a.email}>` : a.email);
const orNull = (list: string[]) => (list.length > 0 ? list : null);

/** The Reply-To header's addresses, split at the commas between them. */
function replyTo(headers: Record<string, string> | undefined): string[] | null {
  const value = headers?.['reply-to'];
  if (!value) return null;
  return orNull(
    value
      .split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
      .map((part) => part.trim())
      .filter(Boolean),
  );
}

/** A received message as Resend's list shows it. */
export function toResendReceivedItem(
  message: InboundSummary & { headers?: Record<string, string> },
): z.infer<typeof resendReceivedItemSchema> {
  return {
    id: message.id,
    to: message.to.map(shown),
    from: shown(message.from),
    created_at: message.receivedAt,
    subject: message.subject,
    bcc: null,
    cc: orNull(message.cc.map(shown)),
    reply_to: replyTo(message.headers),
    received_for: message.recipients,
    message_id: message.messageId ?? '',
    attachments: message.attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.size,
      content_type: a.contentType,
      content_id: a.contentId,
      content_disposition: a.contentId ? 'inline' : 'attachment',
    })),
  };
}

/** A received message, with its bodies, headers and a link to its raw source, as Resend's get answers it. */
export function toResendReceived(message: InboundView, raw: SignedLink | null): z.infer<typeof resendReceivedSchema> {
  const headers = message.headers as Record<string, string>;
  return {
    object: 'email',
    ...toResendReceivedItem({ ...message, headers }),
    html: message.html,
    text: message.text,
    headers,
    raw: message.expired ? null : raw,
  };
}
