// The life of an email, in one table: every status change is one of these named transitions, from the statuses it
// lists to one of its targets. Writes name their transition: `target(name, status)` is the only way a status is
// set on an existing email (a test reads the source for any other), and `fromStatuses(name)` guards the UPDATE so
// that a change arriving late (an email already past that state) changes nothing.
//
// HELD is not stored as a status: held mail is QUEUED with the hold in status_reason (HELD_PROJECT_DISABLED,
// HELD_DOMAIN_NOT_VERIFIED) and due again when the hold is released or re-checked.
import { sql, type SQL } from 'drizzle-orm';
import type { EmailStatus } from '../../db/schema/emails.ts';

/** Statuses a new email is stored with (intake). */
export const INITIAL_STATUSES = [
  'SCHEDULED',
  'QUEUED',
  'SUPPRESSED',
  'FAILED',
] as const satisfies readonly EmailStatus[];
export type InitialStatus = (typeof INITIAL_STATUSES)[number];

interface Transition {
  readonly from: readonly EmailStatus[];
  readonly to: readonly EmailStatus[];
}

export const EMAIL_TRANSITIONS = {
  /** A worker takes a due email under its lease (SENDING under an expired lease: its worker died). */
  claim: { from: ['SCHEDULED', 'QUEUED', 'DEFERRED', 'SENDING'], to: ['SENDING'] },
  /** A worker gives an email back before its handoff (stopping): DEFERRED when it was tried before. */
  giveBack: { from: ['SENDING'], to: ['QUEUED', 'DEFERRED'] },
  /** Held (QUEUED, HELD_…): its project is disabled, or its sender domain not verified within its grace. */
  hold: { from: ['SENDING'], to: ['QUEUED'] },
  /** The transport accepted the message. */
  send: { from: ['SENDING'], to: ['SENT'] },
  /** A temporary failure: tried again at its retry time. */
  defer: { from: ['SENDING'], to: ['DEFERRED'] },
  /** Every transport of its route is down: it waits for one, and the wait is not an attempt. */
  awaitTransport: { from: ['SENDING'], to: ['DEFERRED'] },
  /** A permanent rejection at the handoff, or reported after it. */
  bounce: { from: ['SENDING', 'SENT', 'DELIVERED'], to: ['BOUNCED'] },
  /** It cannot be sent: no signing domain, a message that does not build, its retries used up. */
  fail: { from: ['QUEUED', 'DEFERRED', 'SENDING'], to: ['FAILED'] },
  /** Its address was suppressed or its contact unsubscribed after it was queued (SENDING: found at the claim). */
  suppress: { from: ['QUEUED', 'DEFERRED', 'SENDING'], to: ['SUPPRESSED'] },
  /** Cancelled by the sender, with its campaign, or with its deleted contact, before a worker took it. */
  cancel: { from: ['SCHEDULED', 'QUEUED', 'DEFERRED'], to: ['CANCELLED'] },
  /** A claimed campaign email whose campaign was cancelled (CANCELLED) or paused (back to the queue, held). */
  haltCampaign: { from: ['SENDING'], to: ['CANCELLED', 'QUEUED', 'DEFERRED'] },
  /** Reported delivered by the provider (SES Delivery); never guessed. */
  deliver: { from: ['SENT'], to: ['DELIVERED'] },
  /** An abuse report (ARF, SES Complaint) about a message that reached the mailbox. */
  complain: { from: ['SENT', 'DELIVERED'], to: ['COMPLAINED'] },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof EMAIL_TRANSITIONS;
export type TargetOf<T extends TransitionName> = (typeof EMAIL_TRANSITIONS)[T]['to'][number];

/** Statuses no transition leaves but bounce and complaint reports (the email is over). */
export const FINAL_STATUSES: readonly EmailStatus[] = [
  'SENT',
  'DELIVERED',
  'BOUNCED',
  'COMPLAINED',
  'FAILED',
  'SUPPRESSED',
  'CANCELLED',
];

/** The status a transition sets: one of its targets (checked at run time too, for values built in SQL). */
export function target<T extends TransitionName>(name: T, status: TargetOf<T>): TargetOf<T> {
  if (!(EMAIL_TRANSITIONS[name].to as readonly string[]).includes(status))
    throw new Error(`${name} does not lead to ${status}`);
  return status;
}

/** The statuses a transition may start from, as a list. */
export function fromOf(name: TransitionName): EmailStatus[] {
  return [...EMAIL_TRANSITIONS[name].from];
}

/** `<column> IN (…)`: the guard of a transition's UPDATE (column `status` unless given, e.g. `e.status`). */
export function fromStatuses(name: TransitionName, column: SQL = sql.raw('status')): SQL {
  return sql`${column} IN (${sql.join(
    fromOf(name).map((s) => sql`${s}`),
    sql`, `,
  )})`;
}
