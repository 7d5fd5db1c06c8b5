// What holds marketing mail back from a contact who may otherwise get it: a snooze (reason SNOOZED) and the project's
// frequency cap (reason FREQUENCY_CAP). Decided for a whole call of intake (a fan-out batch) in at most two statements.
import type { Tx } from '../../db/client.ts';
import { findMarketingHolds } from './emails.repo.ts';

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
  const { snoozed, recent } = await findMarketingHolds(tx, projectId, contactIds, cap);
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
