// Named queries on webhook endpoints and their deliveries.
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { webhookDeliveries, webhookEndpoints, type WebhookDeliveryStatus } from '../../db/schema/index.ts';
import { listPage } from '../../db/list-page.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;

/** Creates an endpoint. */
export async function insertEndpoint(db: Executor, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [created] = await db.insert(webhookEndpoints).values(row).returning();
  return created!;
}

export async function findEndpoint(db: Executor, projectId: string, id: string): Promise<EndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)));
  return row ?? null;
}

export async function listEndpoints(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined },
) {
  const filter = eq(webhookEndpoints.projectId, projectId);
  return listPage(db, webhookEndpoints, filter, opts);
}

/** The enabled endpoints of these projects, for the event fan-out (one indexed query per transaction). */
export async function findEnabledEndpoints(
  db: Executor,
  projectIds: string[],
): Promise<Pick<EndpointRow, 'id' | 'projectId' | 'events' | 'format'>[]> {
  return db
    .select({
      id: webhookEndpoints.id,
      projectId: webhookEndpoints.projectId,
      events: webhookEndpoints.events,
      format: webhookEndpoints.format,
    })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.projectId, projectIds), eq(webhookEndpoints.enabled, true)));
}

/** Changes an endpoint's settings. */
export async function updateEndpoint(
  db: Executor,
  projectId: string,
  id: string,
  set: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<EndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

/** Deletes an endpoint and (cascade) its deliveries. */
export async function deleteEndpoint(db: Executor, projectId: string, id: string): Promise<{ url: string } | null> {
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)))
    .returning({ url: webhookEndpoints.url });
  return row ?? null;
}

/** Queues deliveries (one multi-row insert). */
export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<void> {
  if (rows.length > 0) await db.insert(webhookDeliveries).values(rows);
}

export async function listDeliveries(
  db: Executor,
  endpointId: string,
  opts: { limit: number; cursor?: string | undefined; status?: WebhookDeliveryStatus | undefined },
) {
  const filter: SQL | undefined = and(
    eq(webhookDeliveries.endpointId, endpointId),
    opts.status ? eq(webhookDeliveries.status, opts.status) : undefined,
  );
  return listPage(db, webhookDeliveries, filter, opts);
}

export async function findDelivery(db: Executor, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, id)));
  return row ?? null;
}

/** Makes a delivery due now again (manual retry); a delivery being sent right now is left alone. */
export async function requeueDelivery(db: Executor, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'PENDING', nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
        sql`(${webhookDeliveries.leaseExpiresAt} IS NULL OR ${webhookDeliveries.leaseExpiresAt} < now())`,
      ),
    )
    .returning();
  return row ?? null;
}

/** The webhook deliveries of events about an email of the project, oldest first. */
export async function findEmailWebhookDeliveries(
  db: Executor,
  projectId: string,
  emailId: string,
): Promise<DeliveryAboutEmail[]> {
  return db
    .select({
      at: webhookDeliveries.updatedAt,
      event: webhookDeliveries.eventType,
      endpointId: webhookDeliveries.endpointId,
      url: webhookEndpoints.url,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      responseStatus: webhookDeliveries.responseStatus,
      error: webhookDeliveries.lastError,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        // Herald's bodies name the email `emailId`, Resend's `email_id`: each has its own index.
        or(
          and(
            sql`${webhookDeliveries.payload} -> 'data' ? 'emailId'`,
            sql`(${webhookDeliveries.payload} -> 'data' ->> 'emailId') = ${emailId}`,
          ),
          and(
            sql`${webhookDeliveries.payload} -> 'data' ? 'email_id'`,
            sql`(${webhookDeliveries.payload} -> 'data' ->> 'email_id') = ${emailId}`,
          ),
        ),
        eq(webhookDeliveries.projectId, projectId),
      ),
    )
    .orderBy(webhookDeliveries.createdAt);
}

/** A delivery of an event about one email: where, its state, and the endpoint's last answer. */
export interface DeliveryAboutEmail {
  at: Date;
  event: string;
  endpointId: string;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
}
