// contact.* events for the customer's webhooks, queued in the transaction of the change.
import type { Executor } from '../../db/client.ts';
import { emitWebhookEvents, type WebhookEvent } from '../webhooks/index.ts';
import type { ContactRow } from './contacts.repo.ts';

export interface ContactChange {
  contact: ContactRow;
  created?: boolean;
  changed?: boolean;
  flipped?: boolean;
  deleted?: boolean;
}

/** The webhook events of contact changes: created / updated / deleted, and subscribed / unsubscribed on a flip. */
export function contactEvents(projectId: string, changes: ContactChange[]): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const { contact, ...change } of changes) {
    const data = { contactId: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data };
    if (change.created) events.push({ projectId, type: 'contact.created', data });
    else if (change.deleted) events.push({ projectId, type: 'contact.deleted', data });
    else if (change.changed) events.push({ projectId, type: 'contact.updated', data });
    if (change.flipped)
      events.push({
        projectId,
        type: contact.subscribed ? 'contact.subscribed' : 'contact.unsubscribed',
        data: { contactId: contact.id, email: contact.email, subscribed: contact.subscribed },
      });
  }
  return events;
}

/** Queues the webhook events of these changes in the caller's transaction. */
export async function emitContactEvents(db: Executor, projectId: string, changes: ContactChange[]): Promise<void> {
  const events = contactEvents(projectId, changes);
  if (events.length > 0) await emitWebhookEvents(db, events);
}
