import type { Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { recordAudit } from '../audit/index.ts';
import { findContact, findDormantAfterDays, listConsent, toContactView } from '../contacts/index.ts';
import { listEmails } from '../emails/index.ts';
import { listEvents } from '../events/index.ts';
import { segmentMembersPredicate } from '../segments/index.ts';
import { listContactTopics } from '../topics/index.ts';
import { contactsCsv } from './exports.csv.ts';

/**
 * GET /contacts/export: the CSV of every contact of the project, or of a segment's members. The audit log records
 * `contacts.exported` with the filter as the export starts (a read, but one that hands personal data out).
 */
export async function exportContactsCsv(opts: {
  db: Executor;
  projectId: string;
  segmentId?: string | undefined;
  data: 'columns' | 'json';
}) {
  const predicate = opts.segmentId
    ? await segmentMembersPredicate({ db: opts.db, projectId: opts.projectId, id: opts.segmentId })
    : undefined;
  await recordAudit(opts.db, {
    action: 'contacts.exported',
    resourceType: 'contact',
    projectId: opts.projectId,
    changes: { format: [null, 'csv'], segmentId: [null, opts.segmentId ?? null], data: [null, opts.data] },
  });
  return contactsCsv({ db: opts.db, projectId: opts.projectId, predicate, data: opts.data });
}

/** A newest-first list, page by page, as the items of a JSON array (without its brackets). */
async function* jsonItems<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): AsyncGenerator<string> {
  let cursor: string | undefined;
  let first = true;
  do {
    const answer = await page(cursor);
    if (answer.items.length > 0)
      yield `${first ? '' : ','}${answer.items.map((item) => JSON.stringify(item)).join(',')}`;
    first &&= answer.items.length === 0;
    cursor = answer.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * GET /contacts/{id}/export: what Herald holds about one person (a data-subject access request): the contact,
 * its events, its emails' metadata (no bodies), its topic choices and its consent ledger, as the JSON text of the
 * success envelope, written a page at a time (a contact may have any number of events). Throws the 404 before
 * anything is written.
 * `audited`: asked for through the API, recorded in the audit log (`contact.exported`) as the export starts.
 */
export async function exportContact(opts: {
  db: Executor;
  projectId: string;
  id: string;
  audited?: boolean;
}): Promise<AsyncIterable<string>> {
  const contact = isId(opts.id) ? await findContact({ db: opts.db, projectId: opts.projectId, id: opts.id }) : null;
  if (!contact) throw notFound('Contact');
  const { db, projectId } = opts;
  if (opts.audited) {
    await recordAudit(db, { action: 'contact.exported', resourceType: 'contact', resourceId: contact.id, projectId });
  }
  const topics = await listContactTopics({ db, projectId, contactId: contact.id });
  const consent = await listConsent(db, projectId, contact.id);
  const view = toContactView(contact, await findDormantAfterDays({ db, projectId }));
  return (async function* subjectExport() {
    yield `{"success":true,"data":{"contact":${JSON.stringify(view)},"events":[`;
    yield* jsonItems((cursor) => listEvents({ db, projectId, contactId: contact.id, limit: 100, cursor }));
    yield '],"emails":[';
    yield* jsonItems((cursor) => listEmails({ db, projectId, contactId: contact.id, limit: 100, cursor }));
    const at = JSON.stringify(new Date().toISOString());
    yield `],"topics":${JSON.stringify(topics)},"consent":${JSON.stringify(consent)},"exportedAt":${at}}}`;
  })();
}
