// The webhooks module's way in: other modules report what happened, inside the transaction that made it happen,
// so a crash can delay a webhook but never lose it.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { findEnabledEndpoints, insertDeliveries, type NewDelivery } from './webhooks.repo.ts';
import { toResendEvent } from './webhooks.resend-format.ts';
import type { WebhookEventType } from './webhooks.schemas.ts';

export interface WebhookEvent {
  projectId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  createdAt?: Date;
}

/** The channel senders LISTEN on (PostgreSQL); a committed delivery wakes them at once. */
export const WEBHOOK_CHANNEL = 'herald_webhooks';

/**
 * Queues one delivery per (event, subscribed enabled endpoint), in the caller's transaction, in the endpoint's
 * format (a resend endpoint gets Resend's name and body, and nothing for an event Resend has no name for). Costs one
 * indexed query when the project has no endpoint, and one multi-row insert more when it has.
 */
export async function emitWebhookEvents(db: Executor, events: WebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const endpoints = await findEnabledEndpoints(db, [...new Set(events.map((e) => e.projectId))]);
  if (endpoints.length === 0) return 0;
  const rows: NewDelivery[] = [];
  const anyResend = endpoints.some((e) => e.format === 'resend');
  for (const event of events) {
    const createdAt = event.createdAt ?? new Date();
    const herald = {
      type: event.type,
      payload: { type: event.type, createdAt: createdAt.toISOString(), data: event.data },
    };
    const resend = anyResend ? toResendEvent({ ...event, createdAt }) : null;
    for (const endpoint of endpoints) {
      if (endpoint.projectId !== event.projectId) continue;
      const shaped = endpoint.format === 'resend' ? resend : herald;
      if (!shaped || (!endpoint.events.includes('*') && !endpoint.events.includes(shaped.type))) continue;
      rows.push({
        id: newId(),
        projectId: event.projectId,
        endpointId: endpoint.id,
        eventType: shaped.type,
        payload: shaped.payload,
      });
    }
  }
  await insertDeliveries(db, rows);
  if (rows.length > 0) await db.execute(sql`SELECT pg_notify(${WEBHOOK_CHANNEL}, '')`);
  return rows.length;
}
