// What other modules may read of the deliveries: those of events about one email (its timeline lists them).
import type { Executor } from '../../db/client.ts';
import { findEmailWebhookDeliveries, type DeliveryAboutEmail } from './webhooks.repo.ts';

export type EmailWebhookDelivery = DeliveryAboutEmail;

/** The webhook deliveries of events about an email of the project, oldest first. */
export function webhookDeliveriesAboutEmail(
  db: Executor,
  projectId: string,
  emailId: string,
): Promise<EmailWebhookDelivery[]> {
  return findEmailWebhookDeliveries(db, projectId, emailId);
}
