// The delivery module's way in: other modules hand it finished email rows, it owns their life from there.
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { enqueueDeliveries, SEND_PRIORITY } from './delivery.jobs.ts';
import { insertEmails, type NewEmail } from './delivery.repo.ts';

/**
 * Stores emails and queues the QUEUED ones for delivery inside the caller's transaction: they exist,
 * and will be sent, only if that transaction commits. Rows with another status (SUPPRESSED, FAILED) are
 * stored as a record and never sent. Priority: transactional and test mail before workflow before campaign.
 */
export async function queueEmails(ctx: AppContext, tx: Tx, rows: NewEmail[], kind: keyof typeof SEND_PRIORITY): Promise<void> {
  await insertEmails(tx, rows);
  const priority = SEND_PRIORITY[kind];
  await enqueueDeliveries(ctx, tx, rows.filter((r) => r.status === 'QUEUED').map((r) => ({ emailId: r.id, priority })));
}
