// The front door of the webhooks module: other modules report events here, inside their own transaction.
export { emitWebhookEvents, WEBHOOK_CHANNEL } from './webhooks.emit.ts';
export type { WebhookEvent } from './webhooks.emit.ts';
export { webhookSender } from './webhooks.pollers.ts';
export { webhookDeliveriesAboutEmail } from './webhooks.about.ts';
export type { EmailWebhookDelivery } from './webhooks.about.ts';
