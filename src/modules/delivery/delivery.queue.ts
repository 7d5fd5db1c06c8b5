// The delivery module's way in: other modules hand it finished email rows, it owns their life from there.
import type { Tx } from '../../db/client.ts';
import { insertCampaignEmails, insertEmails, type NewEmail } from './delivery.repo.ts';
import { emitEmailEvents } from './delivery.webhooks.ts';

/** Claim order of the delivery queue: transactional and test mail before workflow mail before campaign mail. */
export const SEND_PRIORITY = { TRANSACTIONAL: 10, TEST: 10, WORKFLOW: 5, CAMPAIGN: 0 } as const;

/** The rows with their claim order, the QUEUED ones due now. */
function inQueue(rows: NewEmail[], kind: keyof typeof SEND_PRIORITY): NewEmail[] {
  const now = new Date();
  return rows.map((r) => ({ ...r, priority: SEND_PRIORITY[kind], nextAttemptAt: r.status === 'QUEUED' ? now : null }));
}

/**
 * Stores emails inside the caller's transaction; the QUEUED ones are due at once (the emails table is the
 * delivery queue): they exist, and will be sent, only if that transaction commits. Rows with another status
 * (SUPPRESSED, FAILED) are stored as a record and never sent.
 */
export async function queueEmails(tx: Tx, rows: NewEmail[], kind: keyof typeof SEND_PRIORITY): Promise<void> {
  await insertEmails(tx, inQueue(rows, kind));
  const queued = rows.filter((r) => r.status === 'QUEUED');
  await emitEmailEvents(tx, queued.map((r) => ({ email: { ...r, sourceId: r.sourceId ?? null, contactId: r.contactId ?? null }, type: 'email.queued' as const })));
}

/**
 * A campaign fan-out batch's emails, stored (and so queued) inside the caller's transaction in one statement;
 * a contact that already has this campaign's email gets nothing, so a repeated batch never mails anyone twice.
 * Returns the rows stored. No `email.queued` webhook events: a campaign announces itself (`campaign.sending`).
 */
export async function queueCampaignEmails(tx: Tx, rows: NewEmail[]): Promise<{ id: string; status: string }[]> {
  return insertCampaignEmails(tx, inQueue(rows, 'CAMPAIGN'));
}
