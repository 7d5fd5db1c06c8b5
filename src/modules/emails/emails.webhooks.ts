// The email events pushed to the customer's webhooks: one data shape for every email event.
import type { Executor } from '../../db/client.ts';
import { messageIdFor } from '../../mail/compose.ts';
import { emitWebhookEvents, type WebhookEvent } from '../webhooks/index.ts';
import type { EmailRow, NewEmail } from './emails.repo.ts';
import { providerOf, recipientsOf } from './emails.view.ts';

type EmailFields = Pick<
  EmailRow,
  'id' | 'projectId' | 'toEmail' | 'toList' | 'fromEmail' | 'subject' | 'sourceType' | 'sourceId' | 'contactId' | 'tags'
> & {
  messageId?: string | null;
  /** Absent before the email is handed over (an event at intake): shown as null. */
  transportId?: string | null;
  provider?: string | null;
};

/**
 * `{emailId, to, from, subject, source, contactId, messageId, tags, transportId, provider, …details}` of an email
 * event; transportId and provider are null until the email is handed over.
 */
export function emailEventData(email: EmailFields, details: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    emailId: email.id,
    to: recipientsOf(email),
    from: email.fromEmail,
    subject: email.subject,
    source: { type: email.sourceType, id: email.sourceId },
    contactId: email.contactId,
    messageId: messageIdFor(email),
    tags: email.tags ?? [],
    transportId: email.transportId ?? null,
    provider: providerOf(email.provider),
    ...details,
  };
}

/** Queues webhook deliveries of email events in the caller's transaction. */
export async function emitEmailEvents(
  db: Executor,
  items: {
    email: EmailFields | (NewEmail & EmailFields);
    type: WebhookEvent['type'];
    details?: Record<string, unknown>;
  }[],
): Promise<void> {
  await emitWebhookEvents(
    db,
    items.map((i) => ({ projectId: i.email.projectId, type: i.type, data: emailEventData(i.email, i.details) })),
  );
}
