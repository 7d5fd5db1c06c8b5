// The emails table as the delivery queue: batch claims under a lease, lease renewal, and holds.
// A SENDING email is owned by the worker named in lease_owner until lease_expires_at; after that any
// worker may reclaim it (its owner died). Only the owner settles it (emails.settle.ts).
import { sql } from 'drizzle-orm';
import type { HoldCause } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import {
  claimDueEmails,
  countDueEmails,
  countEmailStatuses,
  releaseHeldProjectEmails,
  type ClaimOptions,
  type EmailRow,
} from './emails.repo.ts';
import type { HoldReason } from './emails.types.ts';

export interface ClaimedEmail {
  email: EmailRow;
  /** It was SENDING under an expired lease: its previous owner stopped without settling it. */
  reclaimed: boolean;
  suppressed: boolean;
  /** Marketing mail to a contact who unsubscribed after it was queued. */
  unsubscribed: boolean;
  /** Marketing mail to a contact who snoozed it after it was queued. */
  snoozed: boolean;
  projectDisabled: boolean;
}

/**
 * Claims up to `limit` due emails in one statement, transactional before workflow before campaign mail
 * (then oldest first), skipping rows other workers hold: they become SENDING under this owner's lease.
 */
export async function claimEmails(db: Executor, opts: ClaimOptions): Promise<ClaimedEmail[]> {
  const claimed = await claimDueEmails(db, opts);
  return claimed
    .map(({ was, suppressed, unsubscribed, snoozed, disabled: projectDisabled, ...email }) => ({
      email,
      reclaimed: was === 'SENDING',
      suppressed,
      unsubscribed,
      snoozed,
      projectDisabled,
    }))
    .sort((a, b) => b.email.priority - a.email.priority);
}

/** The NOTIFY channel that wakes the sending workers: mail became due (queued, or released from a hold). */
export const EMAIL_DUE_CHANNEL = 'herald_email_due';

/** Wakes every sending worker when the caller's transaction commits (a NOTIFY is sent on commit). */
export async function wakeSenders(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${EMAIL_DUE_CHANNEL}, '')`);
}

/** The hold that each cause puts on mail (its status_reason while it waits, QUEUED). */
const HOLD_OF: Record<HoldCause, HoldReason> = {
  PROJECT_DISABLED: 'HELD_PROJECT_DISABLED',
  DOMAIN_NOT_VERIFIED: 'HELD_DOMAIN_NOT_VERIFIED',
  WARMUP_CHANGED: 'HELD_WARMUP',
};

/** The project's mail held for `cause` is due at once, and the sending workers are woken on commit. */
export async function releaseHeldEmails(opts: { db: Executor; projectId: string; cause: HoldCause }): Promise<number> {
  const { db, projectId } = opts;
  const released = await releaseHeldProjectEmails(db, projectId, HOLD_OF[opts.cause]);
  if (released > 0) await wakeSenders(db);
  return released;
}

/** How many emails there are in each status (all projects). */
export async function countEmailsByStatus(db: Executor): Promise<{ status: string; n: number }[]> {
  return countEmailStatuses(db);
}

/** The backlog: emails due and not claimed by any worker, and how long the oldest of them has waited (seconds). */
export async function queueBacklog(db: Executor): Promise<{ due: number; oldestSeconds: number }> {
  return countDueEmails(db);
}
