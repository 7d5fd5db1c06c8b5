// The circuit breaker of every transport, kept in PostgreSQL so that all workers see one state. A transport
// that fails 5 connections in a row (refused, timed out, TLS or AUTH failure, a 421 greeting) is DOWN for a
// back-off (30 s, doubling up to 10 min); at its end one worker (the one that claims the probe) opens a single
// connection: success brings it back HEALTHY, failure starts the next, longer back-off. A failure short of 5 makes
// it DEGRADED, and a message handed over while DEGRADED makes it HEALTHY again. Each change of state is decided
// by one row update, so the `transport.down` and `transport.up` webhooks go out once whichever workers see it.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { TransportState } from '../../db/schema/index.ts';
import { emitWebhookEvents, type WebhookEvent } from '../webhooks/index.ts';
import { DEFAULT_TRANSPORT_ID } from './transports.route.ts';

/** Connection failures in a row that take a transport DOWN. */
export const FAILURES_TO_DOWN = 5;
export const FIRST_BACKOFF_SECONDS = 30;
export const MAX_BACKOFF_SECONDS = 600;
/** How long a claimed probe may take before another worker may claim it (its worker died). */
const PROBE_LEASE_SECONDS = 120;

export interface TransportHealth {
  key: string;
  state: TransportState;
  since: Date;
  failures: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  downUntil: Date | null;
  failovers: number;
  lastFailoverAt: Date | null;
}

interface HealthRow {
  key: string;
  state: TransportState;
  since: string | Date;
  failures: number;
  last_error: string | null;
  last_error_at: string | Date | null;
  down_until: string | Date | null;
  failovers: number;
  last_failover_at: string | Date | null;
}

const date = (v: string | Date | null) => (v === null ? null : new Date(v));

function toHealth(r: HealthRow): TransportHealth {
  return {
    key: r.key,
    state: r.state,
    since: new Date(r.since),
    failures: Number(r.failures),
    lastError: r.last_error,
    lastErrorAt: date(r.last_error_at),
    downUntil: date(r.down_until),
    failovers: Number(r.failovers),
    lastFailoverAt: date(r.last_failover_at),
  };
}

/** A transport never seen failing. */
export function healthyState(key: string): TransportHealth {
  return {
    key,
    state: 'HEALTHY',
    since: new Date(0),
    failures: 0,
    lastError: null,
    lastErrorAt: null,
    downUntil: null,
    failovers: 0,
    lastFailoverAt: null,
  };
}

/** The state of each key (HEALTHY for one without a row). */
export async function readHealth(db: Executor, keys: string[]): Promise<Map<string, TransportHealth>> {
  const out = new Map(keys.map((k) => [k, healthyState(k)]));
  if (keys.length === 0) return out;
  const result = await db.execute(sql`
    SELECT key, state, since, failures, last_error, last_error_at, down_until, failovers, last_failover_at
    FROM transport_health WHERE key IN (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`);
  for (const row of rowsOf<HealthRow>(result)) out.set(row.key, toHealth(row));
  return out;
}

/** Messages of a transport's projects: a project's own transport tells its project, `default` every project. */
async function emitTransition(
  db: Executor,
  key: string,
  type: 'transport.down' | 'transport.up',
  data: Record<string, unknown>,
): Promise<void> {
  const result =
    key === DEFAULT_TRANSPORT_ID
      ? await db.execute(sql`SELECT id::text AS id FROM projects`)
      : await db.execute(sql`SELECT project_id::text AS id FROM transports WHERE id::text = ${key}`);
  const events: WebhookEvent[] = rowsOf<{ id: string }>(result).map((p) => ({
    projectId: p.id,
    type,
    data: { transportId: key, ...data },
  }));
  await emitWebhookEvents(db, events);
}

export interface Transition {
  from: TransportState;
  to: TransportState;
}

/** A connection to the transport failed; returns the change of state it made, if any (DOWN: the webhook is queued). */
export async function recordConnectionFailure(
  db: Executor,
  key: string,
  error: string,
  firstBackoffSeconds = FIRST_BACKOFF_SECONDS,
): Promise<Transition | null> {
  const message = error.slice(0, 500);
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO transport_health (key, backoff_seconds) VALUES (${key}, ${firstBackoffSeconds})
      ON CONFLICT (key) DO NOTHING`);
    const result = await tx.execute(sql`
      UPDATE transport_health h SET
        failures = h.failures + 1,
        last_error = ${message}, last_error_at = clock_timestamp(),
        state = CASE WHEN h.state = 'DOWN' OR h.failures + 1 >= ${FAILURES_TO_DOWN} THEN 'DOWN' ELSE 'DEGRADED' END,
        since = CASE
          WHEN h.state = 'DOWN' THEN h.since
          WHEN h.failures + 1 >= ${FAILURES_TO_DOWN} OR h.state = 'HEALTHY' THEN clock_timestamp()
          ELSE h.since END,
        down_until = CASE WHEN h.state <> 'DOWN' AND h.failures + 1 >= ${FAILURES_TO_DOWN}
          THEN clock_timestamp() + make_interval(secs => h.backoff_seconds) ELSE h.down_until END,
        backoff_seconds = CASE WHEN h.state <> 'DOWN' AND h.failures + 1 >= ${FAILURES_TO_DOWN}
          THEN least(${MAX_BACKOFF_SECONDS}, h.backoff_seconds * 2) ELSE h.backoff_seconds END
      FROM (SELECT key, state AS old_state FROM transport_health WHERE key = ${key} FOR UPDATE) o
      WHERE h.key = o.key
      RETURNING o.old_state, h.state, h.down_until`);
    const row = rowsOf<{ old_state: TransportState; state: TransportState; down_until: string | Date | null }>(
      result,
    )[0];
    if (!row || row.old_state === row.state) return null;
    if (row.state === 'DOWN') {
      await emitTransition(tx, key, 'transport.down', {
        state: 'DOWN',
        lastError: message,
        retryAt: date(row.down_until)?.toISOString() ?? null,
      });
    }
    return { from: row.old_state, to: row.state };
  });
}

/** A message went through (or a probe connected): a DEGRADED or DOWN transport is HEALTHY again. */
export async function recordHealthy(
  db: Executor,
  key: string,
  firstBackoffSeconds = FIRST_BACKOFF_SECONDS,
): Promise<Transition | null> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      UPDATE transport_health h SET state = 'HEALTHY', failures = 0, since = clock_timestamp(), down_until = NULL,
        backoff_seconds = ${firstBackoffSeconds}, probe_owner = NULL, probe_until = NULL
      FROM (SELECT key, state AS old_state FROM transport_health WHERE key = ${key} FOR UPDATE) o
      WHERE h.key = o.key AND (h.state <> 'HEALTHY' OR h.failures > 0)
      RETURNING o.old_state, h.state`);
    const row = rowsOf<{ old_state: TransportState; state: TransportState }>(result)[0];
    if (!row || row.old_state === 'HEALTHY') return null;
    if (row.old_state === 'DOWN') await emitTransition(tx, key, 'transport.up', { state: 'HEALTHY' });
    return { from: row.old_state, to: 'HEALTHY' };
  });
}

/**
 * Claims the probe of a DOWN transport whose back-off is over; true for the one worker that got it. A claim
 * whose worker died is claimable again after a while.
 */
export async function claimProbe(db: Executor, key: string, owner: string): Promise<boolean> {
  const result = await db.execute(sql`
    UPDATE transport_health SET probe_owner = ${owner},
      probe_until = clock_timestamp() + make_interval(secs => ${PROBE_LEASE_SECONDS})
    WHERE key = ${key} AND state = 'DOWN' AND down_until <= clock_timestamp()
      AND (probe_until IS NULL OR probe_until < clock_timestamp())
    RETURNING key`);
  return rowsOf(result).length > 0;
}

/** The probe failed: DOWN for the next, doubled back-off. */
export async function recordProbeFailure(db: Executor, key: string, owner: string, error: string): Promise<void> {
  await db.execute(sql`
    UPDATE transport_health SET last_error = ${error.slice(0, 500)}, last_error_at = clock_timestamp(),
      failures = failures + 1,
      down_until = clock_timestamp() + make_interval(secs => backoff_seconds),
      backoff_seconds = least(${MAX_BACKOFF_SECONDS}, backoff_seconds * 2), probe_owner = NULL, probe_until = NULL
    WHERE key = ${key} AND probe_owner = ${owner}`);
}

/** Messages that went to a fallback instead of this transport. */
export async function recordFailovers(db: Executor, key: string, count: number): Promise<void> {
  if (count <= 0) return;
  await db.execute(sql`
    INSERT INTO transport_health (key, failovers, last_failover_at) VALUES (${key}, ${count}, clock_timestamp())
    ON CONFLICT (key) DO UPDATE SET failovers = transport_health.failovers + ${count},
      last_failover_at = clock_timestamp()`);
}

/** Forgets a deleted transport's state. */
export async function deleteHealth(db: Executor, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM transport_health WHERE key = ${key}`);
}
