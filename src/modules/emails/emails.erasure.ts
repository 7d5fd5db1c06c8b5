// Erasure of a deleted contact from the email records: the records stay for counts (status, timestamps,
// opens, clicks, campaign figures), the address leaves them. Run by the contacts module through the manifest's
// `contactErasure`, in the transaction that deletes the contact; suppressions of the address are not touched.
import type { Executor } from '../../db/client.ts';
import {
  cancelContactEmails,
  deleteUnsharedContent,
  eraseEmailAddresses,
  findContactEmailContent,
} from './emails.repo.ts';
import { emitEmailEvents } from './emails.webhooks.ts';
import { eraseTimelineAddresses } from './emails.timeline.ts';
import { ERASED_ADDRESS } from './emails.types.ts';

/**
 * Side effect: removes deleted contacts' addresses from the project's emails, for many contacts in one pass (a bulk
 * delete's batch as one set of statements). Their own emails (contactId) that had not gone out are cancelled
 * (`CONTACT_DELETED`, `email.cancelled`); in all of them the recipient becomes ERASED_ADDRESS, the recipient's name
 * goes, and finished ones lose their bodies, variables, headers, attachments and MIME (personal content), and the link
 * targets retention kept of them (a link may carry the address). Messages to
 * several that listed an address under another contact's email keep their content; the address is replaced in their
 * To, Cc, Bcc and envelope. Where a subject, an SMTP reply or a status reason quotes an address, it is replaced too.
 */
export async function eraseContactEmails(opts: {
  db: Executor;
  projectId: string;
  contacts: { id: string; email: string }[];
}): Promise<void> {
  const { db, projectId } = opts;
  if (opts.contacts.length === 0) return;
  const contactIds = opts.contacts.map((c) => c.id);
  const lowered = [...new Set(opts.contacts.map((c) => c.email.toLowerCase()))];
  const cancelled = await cancelContactEmails(db, projectId, contactIds);
  const withContent = await findContactEmailContent(db, projectId, contactIds);
  const erased = await eraseEmailAddresses(db, projectId, contactIds, lowered);
  await deleteUnsharedContent(db, withContent);
  await eraseTimelineAddresses(
    db,
    erased.map((r) => r.id),
    lowered,
    ERASED_ADDRESS,
  );
  const ids = new Set(cancelled);
  await emitEmailEvents(
    db,
    erased.filter((r) => ids.has(r.id)).map((email) => ({ email, type: 'email.cancelled' as const })),
  );
}
