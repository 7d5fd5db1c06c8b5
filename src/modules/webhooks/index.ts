// The front door of the webhooks module: other modules report events here, inside their own transaction, and the
// Resend API manages endpoints and their deliveries through the same service as Herald's own routes.
export { emitWebhookEvents, WEBHOOK_CHANNEL } from './webhooks.emit.ts';
export type { WebhookEvent } from './webhooks.emit.ts';
export { webhookSender } from './webhooks.pollers.ts';
export { webhookDeliveriesAboutEmail } from './webhooks.about.ts';
export type { EmailWebhookDelivery } from './webhooks.about.ts';
export { RESEND_EVENT_TYPES } from './webhooks.schemas.ts';
export type { DeliveryView, ResendEventType, WebhookView } from './webhooks.schemas.ts';
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhooks,
  retryWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from './webhooks.service.ts';
