// Double opt-in on the contact: a confirmation email is claimed (paced) before it is sent, and confirming subscribes
// the contact, with both changes in the consent ledger.
import type { ConsentSource } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { recordConsent } from './contacts.consent.ts';
import * as repo from './contacts.repo.ts';
import { updateContact } from './contacts.service.ts';

/** Confirmation emails to one contact are at most this often apart. */
const RESEND_AFTER_SECONDS = 600;

/**
 * Marks the contact PENDING with its confirmation email sent now, unless one went in the last 10 minutes: the time
 * this call may send, or null. Pass the transaction that queues the email.
 */
export async function claimConfirmation(opts: { db: Executor; projectId: string; id: string }): Promise<Date | null> {
  return repo.claimConfirmationSend(opts.db, opts.projectId, opts.id, RESEND_AFTER_SECONDS);
}

/**
 * Confirms the contact's double opt-in: CONFIRMED and subscribed, recorded in the consent ledger with `consent`.
 * False when it was already confirmed (nothing changes).
 */
export async function confirmContact(opts: {
  db: Executor;
  contact: repo.ContactRow;
  consent: ConsentSource;
}): Promise<boolean> {
  const { contact } = opts;
  return opts.db.transaction(async (tx) => {
    if (!(await repo.markConfirmed(tx, contact.projectId, contact.id))) return false;
    await recordConsent(tx, contact.projectId, opts.consent, [{ contactId: contact.id, action: 'confirmed' }]);
    if (!contact.subscribed)
      await updateContact({
        db: tx,
        projectId: contact.projectId,
        id: contact.id,
        subscribed: true,
        consent: opts.consent,
      });
    return true;
  });
}
