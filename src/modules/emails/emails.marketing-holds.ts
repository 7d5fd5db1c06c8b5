// What holds marketing mail back from a contact who may otherwise get it: a snooze (reason SNOOZED) and the project's
// frequency cap (reason FREQUENCY_CAP). Decided for a whole call of intake (a fan-out batch) in at most two statements.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/**
 * The statuses of a marketing email that count toward the frequency cap: every one on its way or handed over (queued
 * and scheduled ones included, so two sends at once cannot both fill the last place). Suppressed, failed, cancelled
 * and bounced emails never reached the person and do not count.
 */
export const CAPPED_STATUSES = ['SCHEDULED', 'QUEUED', 'SENDING', 'DEFERRED', 'SENT', 'DELIVERED', 'COMPLAINED'];

export interface FrequencyCapRule {
  max: number;
  days: number;
}

/** The one-recipient marketing messages of a call, by index, with the contact each goes to. */
export interface HoldCandidate {
  index: number;
  contactId: string;
}

/**
 * The contacts among these that are snoozed now, and with a cap, how many marketing emails each was sent in its
 * window (emails of this project, counted from when each was accepted). With a cap, the contacts' rows are locked
 * first (in id order, so two batches never wait for each other in a circle): a concurrent send to the same contacts
 * waits until this transaction commits, then counts its emails too — the cap holds across any number of workers.
 */
async function findHolds(
  tx: Tx,
  projectId: string,
  contactIds: string[],
  cap: FrequencyCapRule | null,
): Promise<{ snoozed: Set<string>; recent: Map<string, number> }> {
  const ids = sql`${`{${contactIds.join(',')}}`}::uuid[]`;
  const project = sql`c.project_id = ${projectId}::uuid AND c.id = ANY(${ids})`;
  if (!cap) {
    const rows = await tx.execute(sql`SELECT c.id FROM contacts c WHERE ${project} AND c.snoozed_until > now()`);
    return { snoozed: new Set(rowsOf<{ id: string }>(rows).map((r) => r.id)), recent: new Map() };
  }
  const locked = await tx.execute(sql`
    SELECT c.id, coalesce(c.snoozed_until > now(), false) AS snoozed FROM contacts c WHERE ${project}
    ORDER BY c.id FOR NO KEY UPDATE`);
  const snoozed = new Set(
    rowsOf<{ id: string; snoozed: boolean }>(locked)
      .filter((r) => r.snoozed)
      .map((r) => r.id),
  );
  const recent = new Map<string, number>();
  // Counted in a statement of its own: it sees what a transaction that held one of the locks committed meanwhile.
  const statuses = sql.join(
    CAPPED_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const counted = await tx.execute(sql`
    SELECT e.contact_id AS id, count(*)::int AS n FROM emails e
    WHERE e.contact_id = ANY(${ids}) AND e.created_at > now() - ${`${cap.days} days`}::interval
      AND e.project_id = ${projectId}::uuid AND e.marketing AND e.status IN (${statuses})
    GROUP BY e.contact_id`);
  for (const row of rowsOf<{ id: string; n: number }>(counted)) recent.set(row.id, Number(row.n));
  return { snoozed, recent };
}

/**
 * The hold of each candidate (by its index in the call): SNOOZED while its contact is snoozed, FREQUENCY_CAP when the
 * contact's marketing emails in the window — those already stored plus the earlier ones of this call — reached `max`.
 * Candidates come in the call's order; every one not held counts against the next ones to the same contact.
 */
export async function marketingHolds(
  tx: Tx,
  projectId: string,
  candidates: HoldCandidate[],
  cap: FrequencyCapRule | null,
): Promise<Map<number, 'SNOOZED' | 'FREQUENCY_CAP'>> {
  const held = new Map<number, 'SNOOZED' | 'FREQUENCY_CAP'>();
  if (candidates.length === 0) return held;
  const contactIds = [...new Set(candidates.map((c) => c.contactId))].sort();
  const { snoozed, recent } = await findHolds(tx, projectId, contactIds, cap);
  for (const { index, contactId } of candidates) {
    if (snoozed.has(contactId)) {
      held.set(index, 'SNOOZED');
      continue;
    }
    if (!cap) continue;
    const sent = recent.get(contactId) ?? 0;
    if (sent >= cap.max) held.set(index, 'FREQUENCY_CAP');
    else recent.set(contactId, sent + 1);
  }
  return held;
}
