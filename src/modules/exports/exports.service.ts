import type { Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { findContact, toContactView } from '../contacts/index.ts';
import { listEmails } from '../delivery/index.ts';
import { listEvents } from '../events/index.ts';
import { segmentMembersPredicate } from '../segments/index.ts';
import { listContactTopics } from '../topics/index.ts';
import { contactsCsv } from './exports.csv.ts';

/** GET /contacts/export: the CSV of every contact of the project, or of a segment's members. */
export async function exportContactsCsv(opts: { db: Executor; projectId: string; segmentId?: string | undefined; data: 'columns' | 'json' }) {
  const predicate = opts.segmentId ? await segmentMembersPredicate({ db: opts.db, projectId: opts.projectId, id: opts.segmentId }) : undefined;
  return contactsCsv({ db: opts.db, projectId: opts.projectId, predicate, data: opts.data });
}

/** Every page of a newest-first list, in order (a contact's events and emails). */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/**
 * GET /contacts/{id}/export: what Herald holds about one person (a data-subject access request): the contact,
 * its events, its emails' metadata (no bodies) and its topic choices.
 */
export async function exportContact(opts: { db: Executor; projectId: string; id: string }) {
  const contact = isId(opts.id) ? await findContact({ db: opts.db, projectId: opts.projectId, id: opts.id }) : null;
  if (!contact) throw notFound('Contact');
  const { db, projectId } = opts;
  const [events, emails, topics] = await Promise.all([
    allPages((cursor) => listEvents({ db, projectId, contactId: contact.id, limit: 100, cursor })),
    allPages((cursor) => listEmails({ db, projectId, contactId: contact.id, limit: 100, cursor })),
    listContactTopics({ db, projectId, contactId: contact.id }),
  ]);
  return { contact: toContactView(contact), events, emails, topics, exportedAt: new Date().toISOString() };
}
