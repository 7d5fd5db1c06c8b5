import { z } from 'zod';
import type { WebhookFormat } from '../../db/schema/index.ts';
import { isoDate } from '../../lib/http.ts';

/** Every event type an endpoint can subscribe to; `*` subscribes to all. */
export const WEBHOOK_EVENT_TYPES = [
  'email.queued',
  'email.sent',
  'email.delivered',
  'email.deferred',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.opened',
  'email.clicked',
  'email.received',
  'email.scheduled',
  'email.cancelled',
  'email.suppressed',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.subscribed',
  'contact.unsubscribed',
  'campaign.sending',
  'campaign.sent',
  'campaign.paused',
  'domain.verified',
  'domain.failed',
  'domain.blocklisted',
  'domain.delisted',
  'transport.down',
  'transport.up',
  'workflow.execution.completed',
  'workflow.execution.failed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The event names a `resend` endpoint subscribes to: Resend's, every one its SDK knows, so that a subscription
 * copied from Resend is taken whole. Herald sends the first ones (RESEND_SENT_EVENT_TYPES); the others never fire.
 */
export const RESEND_SENT_EVENT_TYPES = [
  'email.sent',
  'email.scheduled',
  'email.delivered',
  'email.delivery_delayed',
  'email.complained',
  'email.bounced',
  'email.opened',
  'email.clicked',
  'email.received',
  'email.failed',
  'email.suppressed',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'domain.updated',
] as const;

export const RESEND_EVENT_TYPES = [
  ...RESEND_SENT_EVENT_TYPES,
  'contact.topics.updated',
  'domain.created',
  'domain.deleted',
  'suppression.added',
  'suppression.removed',
  'topic.created',
  'topic.updated',
  'topic.deleted',
  'inbox.created',
  'inbox.updated',
  'inbox.deleted',
  'inbox.thread.created',
  'inbox.thread.folder.updated',
  'inbox.thread.assigned',
  'inbox.thread.unassigned',
  'inbox.thread.labels.updated',
  'inbox.email.received',
  'inbox.email.sent',
  'inbox.draft.created',
  'inbox.draft.updated',
  'inbox.draft.sent',
  'inbox.draft.deleted',
] as const;

export type ResendEventType = (typeof RESEND_EVENT_TYPES)[number];

export const WEBHOOK_FORMATS = ['herald', 'resend'] as const;

/** The names an endpoint of each format subscribes to (besides `*`, every event it receives). */
export const EVENT_TYPES_OF: Record<WebhookFormat, readonly string[]> = {
  herald: WEBHOOK_EVENT_TYPES,
  resend: RESEND_EVENT_TYPES,
};

const ANY_EVENT_TYPES = [...new Set<string>([...WEBHOOK_EVENT_TYPES, ...RESEND_EVENT_TYPES])] as [
  WebhookEventType | ResendEventType,
  ...(WebhookEventType | ResendEventType)[],
];

const eventType = z.enum([...ANY_EVENT_TYPES, '*'], {
  error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}, or * (a resend endpoint: one of Resend's event names)`,
});

const format = z
  .enum(WEBHOOK_FORMATS)
  .describe(
    "`herald`: Herald's event names and bodies, signed with webhook-* headers; `resend`: Resend's names and bodies, " +
      'signed with svix-* headers, as Resend sends them',
  );

const url = z
  .string()
  .max(2048)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

export const createWebhookBody = z.object({
  url,
  events: z
    .array(eventType)
    .min(1)
    .max(ANY_EVENT_TYPES.length + 1)
    .describe("Event names in the endpoint's format (Resend's for a resend endpoint), or `*` for every event"),
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
  format: format.optional().describe('`herald` (the default) or `resend`; it cannot change later'),
});

export const updateWebhookBody = z.object({
  url: url.optional(),
  events: z
    .array(eventType)
    .min(1)
    .max(ANY_EVENT_TYPES.length + 1)
    .optional(),
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().optional(),
});

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    format,
    /** Why the service disabled it (failing for 5 days, 410 Gone); null when enabled or disabled by you. */
    disabledReason: z.string().nullable(),
    failingSince: isoDate.nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().describe('whsec_…: shown only in this response (an Idempotency-Key replay leaves it out)'),
  })
  .meta({ id: 'WebhookWithSecret' });

export const deliverySchema = z
  .object({
    id: z.string().describe('The webhook-id header of every attempt'),
    eventType: z.string(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
    attempts: z.number().int(),
    responseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: isoDate.nullable(),
    createdAt: isoDate,
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryParams = z.object({ id: z.string(), deliveryId: z.string() });
export const deliveriesQuery = z.object({ status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']).optional() });

export type CreateWebhookInput = z.infer<typeof createWebhookBody>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookBody>;
export type WebhookView = z.infer<typeof webhookSchema>;
export type DeliveryView = z.infer<typeof deliverySchema>;

/** What the API reference says about each webhook route, by operationId. */
export const webhookRouteDocs = {
  rotateWebhookSecret:
    'Returns the new secret once; for 24 hours requests carry signatures by both the new and the old secret.',
  testWebhook: 'Attempts the delivery before answering; a failure is retried on the usual schedule.',
} as const;
