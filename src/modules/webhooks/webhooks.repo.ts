// Named queries on webhook endpoints and their deliveries.
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { webhookDeliveries, webhookEndpoints, type WebhookDeliveryStatus } from '../../db/schema/index.ts';
import { afterCursor } from '../../lib/pagination.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;

// Side effect: creates an endpoint.
export async function insertEndpoint(db: Executor, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [created] = await db.insert(webhookEndpoints).values(row).returning();
  return created!;
}

export async function findEndpoint(db: Executor, projectId: string, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)));
  return row ?? null;
}

export async function listEndpoints(db: Executor, projectId: string, opts: { limit: number; cursor?: string | undefined }) {
  const filter = eq(webhookEndpoints.projectId, projectId);
  const rows = await db.select().from(webhookEndpoints)
    .where(and(filter, afterCursor(webhookEndpoints.createdAt, webhookEndpoints.id, opts.cursor)))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)).limit(opts.limit + 1);
  const [total] = await db.select({ n: count() }).from(webhookEndpoints).where(filter);
  return { rows, total: total?.n ?? 0 };
}

/** The enabled endpoints of these projects, for the event fan-out (one indexed query per transaction). */
export async function findEnabledEndpoints(db: Executor, projectIds: string[]): Promise<Pick<EndpointRow, 'id' | 'projectId' | 'events'>[]> {
  return db.select({ id: webhookEndpoints.id, projectId: webhookEndpoints.projectId, events: webhookEndpoints.events }).from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.projectId, projectIds), eq(webhookEndpoints.enabled, true)));
}

// Side effect: changes an endpoint's settings.
export async function updateEndpoint(db: Executor, projectId: string, id: string, set: Partial<typeof webhookEndpoints.$inferInsert>): Promise<EndpointRow | null> {
  const [row] = await db.update(webhookEndpoints).set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id))).returning();
  return row ?? null;
}

// Side effect: deletes an endpoint and (cascade) its deliveries.
export async function deleteEndpoint(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id))).returning({ id: webhookEndpoints.id });
  return rows.length === 1;
}

// Side effect: queues deliveries (one multi-row insert).
export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<void> {
  if (rows.length > 0) await db.insert(webhookDeliveries).values(rows);
}

export async function listDeliveries(db: Executor, endpointId: string, opts: { limit: number; cursor?: string | undefined; status?: WebhookDeliveryStatus | undefined }) {
  const filter: SQL | undefined = and(eq(webhookDeliveries.endpointId, endpointId), opts.status ? eq(webhookDeliveries.status, opts.status) : undefined);
  const rows = await db.select().from(webhookDeliveries)
    .where(and(filter, afterCursor(webhookDeliveries.createdAt, webhookDeliveries.id, opts.cursor)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)).limit(opts.limit + 1);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(filter);
  return { rows, total: total?.n ?? 0 };
}

export async function findDelivery(db: Executor, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, id)));
  return row ?? null;
}

// Side effect: makes a delivery due now again (manual retry); a delivery being sent right now is left alone.
export async function requeueDelivery(db: Executor, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.update(webhookDeliveries)
    .set({ status: 'PENDING', nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, id),
      sql`(${webhookDeliveries.leaseExpiresAt} IS NULL OR ${webhookDeliveries.leaseExpiresAt} < now())`))
    .returning();
  return row ?? null;
}

export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

// Side effect: leases up to `limit` due deliveries of enabled endpoints to `owner` (oldest first; SKIP LOCKED,
// so concurrent senders never claim one twice; an expired lease is due again).
export async function claimDeliveries(db: Executor, owner: string, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  return claim(db, owner, leaseSeconds, sql`JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
      WHERE d.status = 'PENDING' AND d.next_attempt_at <= now()
        AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
      ORDER BY d.next_attempt_at, d.id
      LIMIT ${limit}`);
}

// Side effect: leases one PENDING delivery by id (the test event, sent at once even to a disabled endpoint).
export async function claimDelivery(db: Executor, owner: string, id: string, leaseSeconds: number): Promise<ClaimedDelivery | null> {
  const [row] = await claim(db, owner, leaseSeconds, sql`WHERE d.id = ${id}::uuid AND d.status = 'PENDING' AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())`);
  return row ?? null;
}

async function claim(db: Executor, owner: string, leaseSeconds: number, selection: SQL): Promise<ClaimedDelivery[]> {
  const result = await db.execute(sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d ${selection}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE webhook_deliveries d SET lease_owner = ${owner}, lease_expires_at = now() + make_interval(secs => ${leaseSeconds}), attempts = d.attempts + 1, updated_at = now()
    FROM due, webhook_endpoints e
    WHERE d.id = due.id AND e.id = d.endpoint_id
    RETURNING d.*, e.url, e.secret AS endpoint_secret, e.previous_secret, e.previous_secret_until`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
  return rows.map((r) => ({
    id: String(r.id), projectId: String(r.project_id), endpointId: String(r.endpoint_id), eventType: String(r.event_type),
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as DeliveryRow['payload'],
    status: r.status as WebhookDeliveryStatus, attempts: Number(r.attempts), responseStatus: r.response_status == null ? null : Number(r.response_status),
    lastError: (r.last_error as string | null) ?? null, nextAttemptAt: date(r.next_attempt_at), leaseOwner: owner,
    leaseExpiresAt: r.lease_expires_at ? date(r.lease_expires_at) : null, createdAt: date(r.created_at), updatedAt: date(r.updated_at),
    url: String(r.url), secret: String(r.endpoint_secret), previousSecret: (r.previous_secret as string | null) ?? null,
    previousSecretUntil: r.previous_secret_until ? date(r.previous_secret_until) : null,
  }));
}

export interface DeliveryOutcome {
  id: string;
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  lastError: string | null;
  /** Seconds until the next attempt (PENDING only). */
  retryInSeconds: number | null;
}

// Side effect: settles a batch of attempts in one statement; only the lease owner's rows change.
export async function settleDeliveries(db: Executor, owner: string, outcomes: DeliveryOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = sql.join(outcomes.map((o) => sql`(${o.id}::uuid, ${o.status}, ${o.responseStatus}::int, ${o.lastError}, ${o.retryInSeconds}::int)`), sql`, `);
  await db.execute(sql`
    UPDATE webhook_deliveries d SET status = v.status, response_status = v.response_status, last_error = v.last_error,
      next_attempt_at = CASE WHEN v.retry IS NULL THEN d.next_attempt_at ELSE now() + make_interval(secs => v.retry) END,
      lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
    FROM (VALUES ${values}) AS v(id, status, response_status, last_error, retry)
    WHERE d.id = v.id AND d.lease_owner = ${owner}`);
}

// Side effect: notes each endpoint's health after a batch: success clears `failing_since`; failure starts it;
// five days of failure (or a 410 Gone) disables the endpoint. Returns the endpoints it disabled.
export async function recordEndpointHealth(db: Executor, succeeded: string[], failed: string[], gone: string[], failingDays: number): Promise<string[]> {
  if (succeeded.length > 0) {
    await db.update(webhookEndpoints).set({ failingSince: null }).where(and(inArray(webhookEndpoints.id, succeeded), sql`${webhookEndpoints.failingSince} IS NOT NULL`));
  }
  const disabled: string[] = [];
  if (failed.length > 0) {
    await db.update(webhookEndpoints).set({ failingSince: sql`now()` }).where(and(inArray(webhookEndpoints.id, failed), sql`${webhookEndpoints.failingSince} IS NULL`));
    const rows = await db.update(webhookEndpoints)
      .set({ enabled: false, disabledReason: `Failing for ${failingDays} days`, updatedAt: sql`now()` })
      .where(and(inArray(webhookEndpoints.id, failed), eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.failingSince} < now() - make_interval(days => ${failingDays})`))
      .returning({ id: webhookEndpoints.id });
    disabled.push(...rows.map((r) => r.id));
  }
  if (gone.length > 0) {
    const rows = await db.update(webhookEndpoints)
      .set({ enabled: false, disabledReason: 'The endpoint answered 410 Gone', updatedAt: sql`now()` })
      .where(and(inArray(webhookEndpoints.id, gone), eq(webhookEndpoints.enabled, true))).returning({ id: webhookEndpoints.id });
    disabled.push(...rows.map((r) => r.id));
  }
  return disabled;
}
