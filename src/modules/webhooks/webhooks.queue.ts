// Named queries of the delivery queue. A sender first holds an endpoint (one sender per endpoint, so its
// deliveries go one at a time, in order), then leases the endpoint's next deliveries, each for its one attempt,
// and settles each attempt as it ends. Every lease outlasts the work it covers (the sender starts an attempt only
// while its lease has more than an attempt's length left, and gives back what it did not attempt). An expired
// lease is free again: a killed sender's work comes back. A disabled project's endpoints are not held: its
// deliveries wait, no attempt made or counted.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { webhookEndpoints, type WebhookDeliveryStatus, type WebhookFormat } from '../../db/schema/index.ts';
import type { DeliveryRow } from './webhooks.repo.ts';

export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  /** The endpoint's format: which headers sign the request. */
  format: WebhookFormat;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  /** The endpoint's `failing_since` when the delivery was leased. */
  failingSince: Date | null;
}

/**
 * Holds up to `limit` endpoints for `owner`: enabled ones of enabled projects, not held by a live lease, with a due
 * delivery that no attempt holds. The least recently served go first, and no project gets more than `perProject`
 * endpoints held at once (by all senders together), so one tenant's endpoints — slow ones above all — cannot take every
 * sender. SKIP LOCKED: concurrent senders never hold one endpoint together.
 */
export async function holdEndpoints(
  db: Executor,
  owner: string,
  opts: { limit: number; perProject: number; leaseSeconds: number },
): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
    WITH held AS (
      SELECT project_id, count(*) AS n FROM webhook_endpoints
      WHERE lease_owner IS NOT NULL AND lease_expires_at >= now() GROUP BY project_id
    ), ready AS (
      SELECT e.id, e.lease_expires_at, coalesce(h.n, 0) + row_number() OVER (PARTITION BY e.project_id ORDER BY
        e.lease_expires_at NULLS FIRST, e.id) AS nth
      FROM webhook_endpoints e
      JOIN projects p ON p.id = e.project_id AND NOT p.disabled
      LEFT JOIN held h ON h.project_id = e.project_id
      WHERE e.enabled AND (e.lease_owner IS NULL OR e.lease_expires_at < now())
        AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'PENDING' AND
          d.next_attempt_at <= now()
          AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now()))
    ), picked AS (
      SELECT e.id FROM webhook_endpoints e JOIN ready r ON r.id = e.id
      WHERE r.nth <= ${opts.perProject}
      ORDER BY r.lease_expires_at NULLS FIRST, r.id
      LIMIT ${opts.limit}
      FOR UPDATE OF e SKIP LOCKED
    )
    UPDATE webhook_endpoints e SET lease_owner = ${owner}, lease_expires_at = now() + make_interval(secs =>
      ${opts.leaseSeconds})
    FROM picked
    WHERE e.id = picked.id AND (e.lease_owner IS NULL OR e.lease_expires_at < now())
    RETURNING e.id`),
  );
  return rows.map((r) => String(r.id));
}

/** Ends `owner`'s hold on an endpoint; the time it ended orders the next claims (least recently served first). */
export async function releaseEndpoint(db: Executor, owner: string, endpointId: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ leaseOwner: null, leaseExpiresAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.leaseOwner, owner)));
}

/**
 * Leases the next `limit` due deliveries of an endpoint `owner` holds, in order (due time, then id), each for one
 * attempt (counted now). None once the hold is lost, the endpoint disabled, or its project disabled.
 */
export async function leaseNextDeliveries(
  db: Executor,
  owner: string,
  endpointId: string,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery[]> {
  const rows = await lease(
    db,
    owner,
    leaseSeconds,
    sql`
    WHERE d.endpoint_id = ${endpointId}::uuid AND d.status = 'PENDING' AND d.next_attempt_at <= now()
      AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
      AND EXISTS (SELECT 1 FROM webhook_endpoints e JOIN projects p ON p.id = e.project_id
        WHERE e.id = d.endpoint_id AND e.enabled AND e.lease_owner = ${owner} AND NOT p.disabled)
    ORDER BY d.next_attempt_at, d.id
    LIMIT ${limit}`,
  );
  return rows.sort(
    (x, y) => x.nextAttemptAt.getTime() - y.nextAttemptAt.getTime() || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  );
}

/** Gives back leased deliveries that were not attempted (their attempt uncounted), due as they were. */
export async function unleaseDeliveries(db: Executor, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1
    WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) AND lease_owner = ${owner}`);
}

/** Leases one PENDING delivery by id (the test event, sent at once even to a disabled endpoint). */
export async function leaseDelivery(
  db: Executor,
  owner: string,
  id: string,
  leaseSeconds: number,
): Promise<ClaimedDelivery | null> {
  const [row] = await lease(
    db,
    owner,
    leaseSeconds,
    sql`WHERE d.id = ${id}::uuid AND d.status = 'PENDING' AND (d.lease_expires_at IS NULL OR d.lease_expires_at <
      now())`,
  );
  return row ?? null;
}

async function lease(db: Executor, owner: string, leaseSeconds: number, selection: SQL): Promise<ClaimedDelivery[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d ${selection}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE webhook_deliveries d SET lease_owner = ${owner}, lease_expires_at = now() + make_interval(secs =>
      ${leaseSeconds}), attempts = d.attempts + 1, updated_at = now()
    FROM due, webhook_endpoints e
    WHERE d.id = due.id AND e.id = d.endpoint_id
    RETURNING d.*, e.url, e.format, e.secret AS endpoint_secret, e.previous_secret, e.previous_secret_until,
      e.failing_since`),
  );
  const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
  return rows.map((r) => ({
    id: String(r.id),
    projectId: String(r.project_id),
    endpointId: String(r.endpoint_id),
    eventType: String(r.event_type),
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as DeliveryRow['payload'],
    status: r.status as WebhookDeliveryStatus,
    attempts: Number(r.attempts),
    responseStatus: r.response_status == null ? null : Number(r.response_status),
    lastError: (r.last_error as string | null) ?? null,
    nextAttemptAt: date(r.next_attempt_at),
    leaseOwner: owner,
    leaseExpiresAt: r.lease_expires_at ? date(r.lease_expires_at) : null,
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    url: String(r.url),
    format: r.format === 'resend' ? ('resend' as const) : ('herald' as const),
    secret: String(r.endpoint_secret),
    previousSecret: (r.previous_secret as string | null) ?? null,
    previousSecretUntil: r.previous_secret_until ? date(r.previous_secret_until) : null,
    failingSince: r.failing_since ? date(r.failing_since) : null,
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

/**
 * Settles attempts (one statement for all) and frees their leases. Only the lease's owner settles: a lease taken over
 * after it expired — it outlasts any attempt, so only a stalled process loses one — stays its new owner's. Returns how
 * many rows it settled.
 */
export async function settleDeliveries(db: Executor, owner: string, outcomes: DeliveryOutcome[]): Promise<number> {
  if (outcomes.length === 0) return 0;
  const values = sql.join(
    outcomes.map(
      (o) => sql`(${o.id}::uuid, ${o.status}, ${o.responseStatus}::int, ${o.lastError}, ${o.retryInSeconds}::int)`,
    ),
    sql`, `,
  );
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
    UPDATE webhook_deliveries d SET status = v.status, response_status = v.response_status, last_error = v.last_error,
      next_attempt_at = CASE WHEN v.retry IS NULL THEN d.next_attempt_at ELSE now() + make_interval(secs => v.retry)
        END,
      lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
    FROM (VALUES ${values}) AS v(id, status, response_status, last_error, retry)
    WHERE d.id = v.id AND d.lease_owner = ${owner}
    RETURNING d.id`),
  );
  return rows.length;
}

export type EndpointHealth = 'succeeded' | 'failed' | 'gone';

/**
 * Notes an endpoint's health after an attempt: success clears `failing_since`; failure starts it; `failingDays` of
 * failure (or a 410 Gone) disables the endpoint. True when this disabled it.
 */
export async function recordEndpointHealth(
  db: Executor,
  endpointId: string,
  health: EndpointHealth,
  failingDays: number,
): Promise<boolean> {
  const endpoint = eq(webhookEndpoints.id, endpointId);
  if (health === 'succeeded') {
    await db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(endpoint, sql`${webhookEndpoints.failingSince} IS NOT NULL`));
    return false;
  }
  const enabled = and(endpoint, eq(webhookEndpoints.enabled, true));
  if (health === 'gone') {
    const rows = await db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: 'The endpoint answered 410 Gone', updatedAt: sql`now()` })
      .where(enabled)
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }
  await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`now()` })
    .where(and(endpoint, sql`${webhookEndpoints.failingSince} IS NULL`));
  const rows = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: `Failing for ${failingDays} days`, updatedAt: sql`now()` })
    .where(and(enabled, sql`${webhookEndpoints.failingSince} < now() - make_interval(days => ${failingDays})`))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}
