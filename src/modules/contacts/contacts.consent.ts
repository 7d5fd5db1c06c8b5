// The consent ledger: every change of a contact's subscription, topic choices, confirmation or pause is written here
// by `recordConsent`, in the transaction of the change, so a change without its entry cannot commit.
import { asc, and, eq } from 'drizzle-orm';
import type { ConsentEntry, ConsentFollowUp, ConsentSource } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { jsonRowsInsert } from '../../db/json-insert.ts';
import { consentLedger, type ConsentAction, type ConsentSourceType } from '../../db/schema/index.ts';
import { iso } from '../../lib/http.ts';
import { currentOrigin } from '../../lib/request-origin.ts';
import { notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { findContact as findContactRow, type ContactRow } from './contacts.repo.ts';

export type { ConsentEntry, ConsentFollowUp, ConsentSource };

let followUps: ConsentFollowUp[] = [];

/** Sets the modules' follow-ups of recorded consent (the runtime does, once, from the module manifests). */
export function setConsentFollowUps(list: ConsentFollowUp[]): void {
  followUps = list;
}

/** The source of a change made through the API: the dashboard when a signed-in person makes it, else the API. */
export function requestSource(): ConsentSource {
  return { type: currentOrigin().actor.type === 'user' ? 'dashboard' : 'api' };
}

/**
 * Appends the entries, with the request's client address and user agent, and runs the follow-ups, all in `db` (the
 * transaction of the change): the one way anything is written to the ledger.
 */
export async function recordConsent(
  db: Executor,
  projectId: string,
  source: ConsentSource,
  entries: ConsentEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const client = source.client === undefined ? currentOrigin() : (source.client ?? { ip: null, userAgent: null });
  await db.execute(
    jsonRowsInsert(
      consentLedger,
      entries.map((entry) => ({
        id: newId(),
        projectId,
        contactId: entry.contactId,
        action: entry.action,
        sourceType: source.type,
        sourceId: source.id ?? null,
        topicId: entry.topicId ?? null,
        emailId: source.emailId ?? null,
        ip: client.ip,
        userAgent: client.userAgent,
        text: source.text ?? null,
      })),
    ),
  );
  for (const followUp of followUps) await followUp({ db, projectId, source, entries });
}

/** The ledger entries of subscription changes: a flip either way, or a contact created subscribed. */
export function subscriptionEntries(
  changes: { contact: ContactRow; created?: boolean | undefined; flipped?: boolean | undefined }[],
): ConsentEntry[] {
  return changes
    .filter((c) => c.flipped || (c.created && c.contact.subscribed))
    .map((c) => ({ contactId: c.contact.id, action: c.contact.subscribed ? 'subscribed' : 'unsubscribed' }));
}

export interface ConsentView {
  at: string;
  action: ConsentAction;
  source: { type: ConsentSourceType; id?: string; emailId?: string };
  topicId?: string;
  ip?: string;
  userAgent?: string;
  text?: string;
}

/** GET /contacts/{id}/consent: the contact's entries, oldest first; 404 for no contact of the project. */
export async function getContactConsent(opts: { db: Executor; projectId: string; id: string }): Promise<ConsentView[]> {
  const contact = isId(opts.id) ? await findContactRow(opts.db, opts.projectId, opts.id) : null;
  if (!contact) throw notFound('Contact');
  return listConsent(opts.db, opts.projectId, contact.id);
}

/** A contact's entries, oldest first (the caller has checked the contact is the project's). */
export async function listConsent(db: Executor, projectId: string, contactId: string): Promise<ConsentView[]> {
  const rows = await db
    .select()
    .from(consentLedger)
    .where(and(eq(consentLedger.projectId, projectId), eq(consentLedger.contactId, contactId)))
    .orderBy(asc(consentLedger.at), asc(consentLedger.id));
  return rows.map((r) => ({
    at: iso(r.at),
    action: r.action,
    source: {
      type: r.sourceType,
      ...(r.sourceId ? { id: r.sourceId } : {}),
      ...(r.emailId ? { emailId: r.emailId } : {}),
    },
    ...(r.topicId ? { topicId: r.topicId } : {}),
    ...(r.ip ? { ip: r.ip } : {}),
    ...(r.userAgent ? { userAgent: r.userAgent } : {}),
    ...(r.text ? { text: r.text } : {}),
  }));
}
