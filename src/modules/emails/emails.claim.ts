// The emails table as the delivery queue: batch claims under a lease, lease renewal, and holds.
// A SENDING email is owned by the worker named in lease_owner until lease_expires_at; after that any
// worker may reclaim it (its owner died). Only the owner settles it (see delivery.record.ts).
// A claim writes only columns no index holds (status is not in the due index's predicate: the generated
// `queued` column is), so PostgreSQL makes it a HOT update: one row version more, no index entries.
import { inArray, sql } from 'drizzle-orm';
import type { HoldCause } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/emails.ts';
import type { EmailRow } from './emails.repo.ts';
import { rowsOf } from '../../db/rows.ts';
import { fromStatuses, target } from './emails.lifecycle.ts';

/**
 * An email (alias `m`) a worker may claim now: queued and due, and when SENDING, its lease has run out. The
 * claim and the backlog gauge (delivery.metrics.ts) count the same emails.
 */
export const dueEmail = sql`m.queued AND m.next_attempt_at <= now() AND (m.status <> 'SENDING' OR m.lease_expires_at <= now())`;

/** `id1::uuid, id2::uuid, …` for an IN list. */
const idList = (ids: string[]) => sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `);

export interface ClaimedEmail {
  email: EmailRow;
  /** It was SENDING under an expired lease: its previous owner stopped without settling it. */
  reclaimed: boolean;
  suppressed: boolean;
  /** Marketing mail to a contact who unsubscribed after it was queued. */
  unsubscribed: boolean;
  projectDisabled: boolean;
}

export interface ClaimOptions {
  owner: string;
  limit: number;
  leaseSeconds: number;
  /** With pacing on: projects whose next slot is further away than this are not claimed from now. */
  pacingHorizonMs?: number;
}


/**
 * Claims up to `limit` due emails in one statement, transactional before workflow before campaign mail
 * (then oldest first), skipping rows other workers hold: they become SENDING under this owner's lease.
 */
export async function claimEmails(db: Executor, opts: ClaimOptions): Promise<ClaimedEmail[]> {
  const paced = opts.pacingHorizonMs === undefined ? sql`` : sql`AND NOT EXISTS (
      SELECT 1 FROM send_pacing p WHERE p.project_id = m.project_id AND p.next_at > now() + ${`${opts.pacingHorizonMs} milliseconds`}::interval)`;
  const claimed = rowsOf<{ id: string; was: string; suppressed: boolean; unsubscribed: boolean; disabled: boolean }>(await db.execute(sql`
    WITH picked AS (
      SELECT m.id, m.status AS was FROM emails m
      WHERE ${dueEmail} ${paced}
      ORDER BY m.priority DESC NULLS LAST, m.next_attempt_at
      LIMIT ${opts.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE emails e SET status = ${target('claim', 'SENDING')}, lease_owner = ${opts.owner}, attempts = e.attempts + 1, updated_at = now(),
      lease_expires_at = now() + ${`${opts.leaseSeconds} seconds`}::interval
    FROM picked WHERE e.id = picked.id
    RETURNING e.id, picked.was,
      CASE WHEN e.rcpt IS NULL THEN EXISTS (SELECT 1 FROM suppressions s WHERE s.project_id = e.project_id AND s.email = e.to_email)
        -- A message to several: suppressed when every address of its envelope is.
        ELSE NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(e.rcpt) r(address)
          WHERE NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.project_id = e.project_id AND s.email = r.address)) END AS suppressed,
      (e.marketing AND EXISTS (SELECT 1 FROM contacts c WHERE c.id = e.contact_id AND c.subscribed IS FALSE)) AS unsubscribed,
      EXISTS (SELECT 1 FROM projects p WHERE p.id = e.project_id AND p.disabled) AS disabled`));
  if (claimed.length === 0) return [];
  const rows = await db.select().from(emails).where(inArray(emails.id, claimed.map((c) => c.id)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return claimed.flatMap((c) => {
    const email = byId.get(c.id);
    return email ? [{ email, reclaimed: c.was === 'SENDING', suppressed: c.suppressed, unsubscribed: c.unsubscribed, projectDisabled: c.disabled }] : [];
  }).sort((a, b) => b.email.priority - a.email.priority);
}

// Side effect: extends this owner's leases on the emails it still works on (one statement).
export async function renewLeases(db: Executor, owner: string, ids: string[], leaseSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE emails SET lease_expires_at = now() + ${`${leaseSeconds} seconds`}::interval
    WHERE id IN (${idList(ids)}) AND status = 'SENDING' AND lease_owner = ${owner}`);
}

export type HoldReason = 'HELD_PROJECT_DISABLED' | 'HELD_DOMAIN_NOT_VERIFIED';

/** The NOTIFY channel that wakes the sending workers: mail became due (queued, or released from a hold). */
export const EMAIL_DUE_CHANNEL = 'herald_email_due';

// Side effect: wakes every sending worker when the caller's transaction commits (a NOTIFY is sent on commit).
export async function wakeSenders(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${EMAIL_DUE_CHANNEL}, '')`);
}

/** The hold that each cause puts on mail (its status_reason while it waits, QUEUED). */
const HOLD_OF: Record<HoldCause, HoldReason> = { PROJECT_DISABLED: 'HELD_PROJECT_DISABLED', DOMAIN_NOT_VERIFIED: 'HELD_DOMAIN_NOT_VERIFIED' };

// Side effect: the project's mail held for `cause` is due at once, and the sending workers are woken on commit.
export async function releaseHeldEmails(opts: { db: Executor; projectId: string; cause: HoldCause }): Promise<number> {
  const { db, projectId } = opts;
  const reason = HOLD_OF[opts.cause];
  const released = rowsOf(await db.execute(sql`
    UPDATE emails SET next_attempt_at = now(), status_reason = NULL, updated_at = now()
    WHERE project_id = ${projectId}::uuid AND status = 'QUEUED' AND status_reason = ${reason}
    RETURNING id`)).length;
  if (released > 0) await wakeSenders(db);
  return released;
}

// Side effect: gives claimed emails back as QUEUED with the hold named in status_reason, looked at again
// after `recheckSeconds` (or at once when a trigger releases the hold); the attempt does not count.
export async function holdEmails(db: Executor, owner: string, ids: string[], reason: HoldReason, recheckSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE emails SET status = ${target('hold', 'QUEUED')}, status_reason = ${reason}, lease_owner = NULL, lease_expires_at = NULL, attempts = greatest(attempts - 1, 0),
      next_attempt_at = now() + ${`${recheckSeconds} seconds`}::interval, updated_at = now()
    WHERE id IN (${idList(ids)}) AND ${fromStatuses('hold')} AND lease_owner = ${owner}`);
}

// Side effect: gives claimed emails back untouched (a worker that stops before starting them).
export async function releaseEmails(db: Executor, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE emails SET status = CASE WHEN attempts > 1 THEN ${target('giveBack', 'DEFERRED')} ELSE ${target('giveBack', 'QUEUED')} END,
      lease_owner = NULL, lease_expires_at = NULL, attempts = greatest(attempts - 1, 0), next_attempt_at = now(), updated_at = now()
    WHERE id IN (${idList(ids)}) AND ${fromStatuses('giveBack')} AND lease_owner = ${owner}`);
}

/** How many emails there are in each status (all projects). */
export async function countEmailsByStatus(db: Executor): Promise<{ status: string; n: number }[]> {
  const rows = rowsOf<{ status: string; n: number }>(await db.execute(sql`SELECT status, count(*)::int AS n FROM emails GROUP BY status`));
  return rows.map((row) => ({ status: row.status, n: Number(row.n) }));
}

/** The backlog: emails due and not claimed by any worker, and how long the oldest of them has waited (seconds). */
export async function queueBacklog(db: Executor): Promise<{ due: number; oldestSeconds: number }> {
  const [row] = rowsOf<{ n: number; age: number | null }>(await db.execute(sql`
    SELECT count(*)::int AS n,
      extract(epoch FROM now() - min(CASE WHEN m.status = 'SENDING' THEN m.lease_expires_at ELSE m.next_attempt_at END))::float8 AS age
    FROM emails m WHERE ${dueEmail}`));
  return { due: Number(row?.n ?? 0), oldestSeconds: Math.max(0, Number(row?.age ?? 0)) };
}
