import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { contactConfirmations } from '../../db/schema/index.ts';

export type ConfirmationRow = typeof contactConfirmations.$inferSelect;

/** Resends of a pending confirmation are at most this often apart. */
export const RESEND_AFTER_SECONDS = 600;

/** A contact's confirmation, or null (it never signed up through /v1/subscribe with double opt-in). */
export async function findConfirmation(db: Executor, contactId: string): Promise<ConfirmationRow | null> {
  const [row] = await db.select().from(contactConfirmations).where(eq(contactConfirmations.contactId, contactId));
  return row ?? null;
}

/**
 * Marks the contact PENDING and its email as sent now, unless one was sent in the last 10 minutes (a guarded upsert: of
 * two concurrent signups only one sends). Returns the time when this call may send.
 */
export async function claimConfirmationSend(db: Executor, projectId: string, contactId: string): Promise<Date | null> {
  const result = await db.execute(sql`
    INSERT INTO contact_confirmations (contact_id, project_id, status, sent_at) VALUES (${contactId}::uuid,
      ${projectId}::uuid, 'PENDING', now())
    ON CONFLICT (contact_id) DO UPDATE SET status = 'PENDING', sent_at = now(), confirmed_at = NULL
    WHERE contact_confirmations.status <> 'PENDING' OR contact_confirmations.sent_at IS NULL
      OR contact_confirmations.sent_at < now() - make_interval(secs => ${RESEND_AFTER_SECONDS})
    RETURNING sent_at::timestamptz(3) AS sent_at`);
  const [row] = rowsOf<{ sent_at: string | Date }>(result);
  return row ? new Date(row.sent_at) : null;
}

/** Marks the contact CONFIRMED; false when it already was (nothing to record again). */
export async function markConfirmed(db: Executor, projectId: string, contactId: string): Promise<boolean> {
  const result = await db.execute(sql`
    INSERT INTO contact_confirmations (contact_id, project_id, status, confirmed_at) VALUES (${contactId}::uuid,
      ${projectId}::uuid, 'CONFIRMED', now())
    ON CONFLICT (contact_id) DO UPDATE SET status = 'CONFIRMED', confirmed_at = now() WHERE
      contact_confirmations.status <> 'CONFIRMED'
    RETURNING contact_id`);
  return rowsOf(result).length > 0;
}
