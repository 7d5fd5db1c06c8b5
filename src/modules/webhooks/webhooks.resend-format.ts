// What a `resend` endpoint receives: Herald's events under Resend's names, in Resend's body
// `{type, created_at, data}` with snake_case data. Events Resend has no name for are not sent to such an endpoint.
import type { WebhookPayload } from '../../db/schema/index.ts';
import type { ResendEventType, WebhookEventType } from './webhooks.schemas.ts';

/** Herald's event → Resend's name, for each event a resend endpoint receives. */
export const RESEND_NAME_OF: Partial<Record<WebhookEventType, ResendEventType>> = {
  'email.sent': 'email.sent',
  'email.scheduled': 'email.scheduled',
  'email.delivered': 'email.delivered',
  'email.deferred': 'email.delivery_delayed',
  'email.complained': 'email.complained',
  'email.bounced': 'email.bounced',
  'email.opened': 'email.opened',
  'email.clicked': 'email.clicked',
  'email.received': 'email.received',
  'email.failed': 'email.failed',
  'email.suppressed': 'email.suppressed',
  'contact.created': 'contact.created',
  'contact.updated': 'contact.updated',
  'contact.deleted': 'contact.deleted',
  'domain.verified': 'domain.updated',
  'domain.failed': 'domain.updated',
};

type Data = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];

/** Herald's `[{name, value}]` tags as Resend's `{name: value}`. */
function tagsOf(value: unknown): Record<string, string> {
  const tags: Record<string, string> = {};
  if (Array.isArray(value))
    for (const tag of value as { name?: unknown; value?: unknown }[])
      if (typeof tag?.name === 'string') tags[tag.name] = String(tag.value ?? '');
  return tags;
}

/** The fields every email event carries; `created_at` is the event's time. */
function emailBase(data: Data, at: string): Data {
  const source = (data.source ?? {}) as { type?: unknown; id?: unknown };
  return {
    ...(source.type === 'CAMPAIGN' && typeof source.id === 'string' ? { broadcast_id: source.id } : {}),
    created_at: at,
    email_id: data.emailId,
    message_id: data.messageId ?? null,
    from: data.from,
    to: list(data.to),
    subject: data.subject,
    tags: tagsOf(data.tags),
  };
}

/** What each event adds to the email fields, in Resend's words. */
function emailDetails(type: WebhookEventType, data: Data, at: string): Data {
  switch (type) {
    case 'email.bounced':
      return {
        bounce: {
          type: 'Permanent',
          subType: data.suppressed === true ? 'Suppressed' : 'General',
          message: text(data.diagnostic) ?? text(data.code) ?? 'The message bounced',
        },
      };
    case 'email.failed':
      return { failed: { reason: text(data.error) ?? 'The message could not be sent' } };
    case 'email.suppressed':
      return {
        suppressed: {
          type: (text(data.reason) ?? 'suppressed').toLowerCase(),
          message: `Not sent: the address is suppressed (${text(data.reason) ?? 'suppressed'})`,
        },
      };
    case 'email.clicked':
      return { click: { link: text(data.url), timestamp: at } };
    default:
      return {};
  }
}

function contactData(data: Data): Data {
  const fields = (data.data ?? {}) as Data;
  return {
    id: data.contactId,
    email: data.email,
    first_name: text(fields.firstName),
    last_name: text(fields.lastName),
    unsubscribed: data.subscribed === false,
  };
}

function receivedData(data: Data, at: string): Data {
  return {
    email_id: data.inboundId,
    created_at: at,
    from: data.from,
    to: list(data.to),
    received_for: list(data.to),
    subject: data.subject ?? '',
  };
}

function domainData(data: Data): Data {
  return { id: data.domainId, name: data.domain, status: String(data.status ?? '').toLowerCase() };
}

/**
 * A Herald event as a resend endpoint receives it: Resend's name and body, or null when Resend has no name for it
 * (email.queued, email.cancelled, contact.subscribed and .unsubscribed, campaign, transport, workflow and blocklist
 * events).
 */
export function toResendEvent(event: {
  type: WebhookEventType;
  data: Data;
  createdAt: Date;
}): { type: ResendEventType; payload: WebhookPayload } | null {
  const type = RESEND_NAME_OF[event.type];
  if (!type) return null;
  const at = event.createdAt.toISOString();
  const data = event.type.startsWith('contact.')
    ? contactData(event.data)
    : event.type === 'email.received'
      ? receivedData(event.data, at)
      : event.type.startsWith('domain.')
        ? domainData(event.data)
        : { ...emailBase(event.data, at), ...emailDetails(event.type, event.data, at) };
  return { type, payload: { type, created_at: at, data } };
}
