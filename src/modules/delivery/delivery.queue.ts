// The delivery module's way in: other modules hand it finished email rows, it owns their life from there.
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { enqueueDeliveries, SEND_PRIORITY } from './delivery.jobs.ts';
import { insertEmails, type NewEmail } from './delivery.repo.ts';
import { emitEmailEvents } from './delivery.webhooks.ts';

/**
 * Stores emails and queues the QUEUED ones for delivery inside the caller's transaction: they exist,
 * and will be sent, only if that transaction commits. Rows with another status (SUPPRESSED, FAILED) are
 * stored as a record and never sent. Priority: transactional and test mail before workflow before campaign.
 */
export async function queueEmails(ctx: AppContext, tx: Tx, rows: NewEmail[], kind: keyof typeof SEND_PRIORITY): Promise<void> {
  await insertEmails(tx, rows);
  const priority = SEND_PRIORITY[kind];
  const queued = rows.filter((r) => r.status === 'QUEUED');
  await enqueueDeliveries(ctx, tx, queued.map((r) => ({ emailId: r.id, priority })));
  await emitEmailEvents(tx, queued.map((r) => ({ email: { ...r, sourceId: r.sourceId ?? null, contactId: r.contactId ?? null }, type: 'email.queued' as const })));
}
