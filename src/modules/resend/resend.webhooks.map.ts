// Resend's webhook and webhook event shapes, and Herald's endpoints and deliveries in them.
import { z } from 'zod';
import { AppError, validationError } from '../../lib/errors.ts';
import { RESEND_EVENT_TYPES, type DeliveryView, type WebhookView } from '../webhooks/index.ts';

const eventName = z.enum(RESEND_EVENT_TYPES, {
  error: `must be one of Resend's event names: ${RESEND_EVENT_TYPES.join(', ')}`,
});

const endpoint = z
  .string()
  .max(2048)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL')
  .describe('Where events are POSTed: an https URL (http and private addresses only with WEBHOOK_ALLOW_PRIVATE)');

const status = z.enum(['enabled', 'disabled']);

export const createWebhookBody = z.object({
  endpoint,
  events: z.array(eventName).min(1).max(RESEND_EVENT_TYPES.length),
});

export const updateWebhookBody = z.object({
  endpoint: endpoint.optional(),
  events: z.array(eventName).min(1).max(RESEND_EVENT_TYPES.length).optional(),
  status: status.optional(),
});

export const webhookRef = z.object({ object: z.literal('webhook'), id: z.string() });
export const webhookWithSecret = webhookRef
  .extend({ signing_secret: z.string().describe('whsec_…: shown only in this answer') })
  .meta({ id: 'ResendWebhookSecret' });

export const resendWebhookSchema = z
  .object({
    object: z.literal('webhook'),
    id: z.string(),
    endpoint: z.string(),
    events: z.array(z.string()).nullable(),
    status,
    created_at: z.string(),
  })
  .meta({ id: 'ResendWebhook' });

const eventStatus = z
  .enum(['pending', 'attempting', 'success', 'failed'])
  .describe('`pending`: not tried yet; `attempting`: tried, and due again; `success`; `failed`: no more retries');

export const webhookEventItem = z.object({
  id: z.string().describe('The svix-id header of every attempt'),
  type: z.string(),
  created_at: z.string(),
  status: eventStatus,
});

export const webhookEventSchema = webhookEventItem
  .extend({
    object: z.literal('webhook_event'),
    next_attempt_at: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).describe('The body as sent'),
    attempts: z.number().int().describe('Attempts made so far'),
    response_status: z.number().int().nullable().describe("The endpoint's status code at the last attempt"),
    last_error: z.string().nullable().describe('What went wrong at the last attempt'),
  })
  .meta({ id: 'ResendWebhookEvent' });

export const webhookEventParams = z.object({ id: z.string(), eventId: z.string() });

/** A Herald endpoint as Resend shows a webhook. */
export function toResendWebhook(view: WebhookView): z.infer<typeof resendWebhookSchema> {
  return {
    object: 'webhook',
    id: view.id,
    endpoint: view.url,
    events: view.events,
    status: view.enabled ? 'enabled' : 'disabled',
    created_at: view.createdAt,
  };
}

/** A delivery's state in Resend's words. */
function statusOf(delivery: DeliveryView): z.infer<typeof eventStatus> {
  if (delivery.status === 'SUCCEEDED') return 'success';
  if (delivery.status === 'FAILED') return 'failed';
  return delivery.attempts > 0 ? 'attempting' : 'pending';
}

/** A Herald delivery as an item of Resend's list of a webhook's events. */
export function toResendEventItem(delivery: DeliveryView): z.infer<typeof webhookEventItem> {
  return { id: delivery.id, type: delivery.eventType, created_at: delivery.createdAt, status: statusOf(delivery) };
}

/** A Herald delivery, with its body, as Resend's webhook event. */
export function toResendWebhookEvent(delivery: DeliveryView & { payload: object }): z.infer<typeof webhookEventSchema> {
  return {
    object: 'webhook_event',
    ...toResendEventItem(delivery),
    next_attempt_at: delivery.nextAttemptAt,
    payload: delivery.payload as Record<string, unknown>,
    attempts: delivery.attempts,
    response_status: delivery.responseStatus,
    last_error: delivery.lastError,
  };
}

/** Herald's refusal of a URL (its `url` field) as a refusal of Resend's `endpoint`. */
export async function asEndpointField<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const field = error instanceof AppError ? error.errors?.[0] : undefined;
    if (field?.field !== 'url') throw error;
    throw validationError('endpoint', `endpoint: ${field.message}`, field.code);
  }
}
