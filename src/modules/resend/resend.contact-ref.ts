// A contact named in a /resend path by its id or by its email address.
import type { Executor } from '../../db/client.ts';
import { normalizeEmail } from '../../lib/email-address.ts';
import { notFound } from '../../lib/errors.ts';
import {
  type ContactView,
  findContactsByEmails,
  findDormantAfterDays,
  getContact,
  toContactView,
} from '../contacts/index.ts';

/** The contact a path names by id or by email, or a 404. */
export async function findResendContact(opts: { db: Executor; projectId: string; ref: string }): Promise<ContactView> {
  const { db, projectId, ref } = opts;
  if (!ref.includes('@')) return getContact({ db, projectId, id: ref });
  const email = normalizeEmail(ref);
  const row = (await findContactsByEmails({ db, projectId, emails: [email] })).get(email);
  if (!row) throw notFound('Contact');
  return toContactView(row, await findDormantAfterDays({ db, projectId }));
}
