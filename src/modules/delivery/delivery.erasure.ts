// Erasure of a deleted contact from the email records (CONTRACT §17): the records stay for counts (status, timestamps,
// opens, clicks, campaign figures), the address leaves them. Run by the contacts module through the manifest's
// `contactErasure`, in the transaction that deletes the contact; suppressions of the address are not touched.
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/emails.ts';
import { EMAIL_TRANSITIONS, FINAL_STATUSES } from './delivery.repo.ts';
import { dropUnsharedContent } from './delivery.retention.ts';
import { emitEmailEvents } from './delivery.webhooks.ts';

/** What an erased address becomes: address-shaped (clients that parse `to` keep working), never deliverable (RFC 2606). */
export const ERASED_ADDRESS = 'erased@erased.invalid';

/** Why a contact's unsent emails were cancelled. */
export const CONTACT_DELETED = 'CONTACT_DELETED';

/** The address as a regular expression (PostgreSQL's, used case-insensitively), for the texts that quote it (subjects, SMTP replies). */
function addressPattern(address: string): string {
  return address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A jsonb list of `{email, name}` with the address's entries replaced by the erased address (no name). */
function erasedList(column: AnyColumn, address: string): SQL {
  return sql`CASE WHEN ${column} IS NULL THEN NULL ELSE coalesce((SELECT jsonb_agg(CASE WHEN lower(x->>'email') = ${address}
    THEN jsonb_build_object('email', ${ERASED_ADDRESS}::text) ELSE x END ORDER BY i) FROM jsonb_array_elements(${column}) WITH ORDINALITY AS t(x, i)), '[]'::jsonb) END`;
}

/** The envelope (a jsonb list of addresses) with the address replaced by the erased address. */
function erasedEnvelope(address: string): SQL {
  return sql`CASE WHEN ${emails.rcpt} IS NULL THEN NULL ELSE coalesce((SELECT jsonb_agg(CASE WHEN lower(x #>> '{}') = ${address}
    THEN to_jsonb(${ERASED_ADDRESS}::text) ELSE x END ORDER BY i) FROM jsonb_array_elements(${emails.rcpt}) WITH ORDINALITY AS t(x, i)), '[]'::jsonb) END`;
}

/**
 * Side effect: removes a deleted contact's address from the project's emails. Its own emails (contactId) that had
 * not gone out are cancelled (`CONTACT_DELETED`, `email.cancelled`); in all of them the recipient becomes
 * ERASED_ADDRESS, the recipient's name goes, and finished ones lose their bodies, variables, headers, attachments and
 * MIME (personal content). Messages to several that listed the address under another contact's email keep their
 * content; the address is replaced in their To, Cc, Bcc and envelope. Where a subject, an SMTP reply or a status
 * reason quotes the address, it is replaced too.
 */
export async function eraseContactEmails(opts: { db: Executor; projectId: string; contactId: string; email: string }): Promise<void> {
  const { db, projectId, contactId } = opts;
  const address = opts.email.toLowerCase();
  const own = and(eq(emails.projectId, projectId), eq(emails.contactId, contactId));
  const cancelled = await db.update(emails)
    .set({ status: 'CANCELLED', statusReason: CONTACT_DELETED, nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(own, inArray(emails.status, [...EMAIL_TRANSITIONS.CANCELLED]))).returning({ id: emails.id });
  const withContent = await db.select({ setId: emails.attachmentSetId, mimeId: emails.mimeId }).from(emails)
    .where(and(own, inArray(emails.status, [...FINAL_STATUSES]), sql`(${emails.attachmentSetId} IS NOT NULL OR ${emails.mimeId} IS NOT NULL)`));
  const mine = sql`(${emails.contactId} = ${contactId})`;
  const finished = sql`(${mine} AND ${emails.status} IN (${sql.join(FINAL_STATUSES.map((s) => sql`${s}`), sql`, `)}))`;
  const named = sql`(${mine} OR lower(${emails.toEmail}) = ${address})`;
  const keep = <T extends AnyColumn>(column: T, when: SQL, value: SQL = sql`NULL`) => sql`CASE WHEN ${when} THEN ${value} ELSE ${column} END`;
  const pattern = addressPattern(address);
  const erased = await db.update(emails).set({
    toEmail: keep(emails.toEmail, named, sql`${ERASED_ADDRESS}::text`),
    toName: keep(emails.toName, named),
    toList: erasedList(emails.toList, address),
    cc: erasedList(emails.cc, address),
    bcc: erasedList(emails.bcc, address),
    rcpt: erasedEnvelope(address),
    subject: sql`regexp_replace(${emails.subject}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`,
    lastError: sql`regexp_replace(${emails.lastError}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`,
    statusReason: sql`regexp_replace(${emails.statusReason}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`,
    html: keep(emails.html, finished),
    text: keep(emails.text, finished),
    variables: keep(emails.variables, finished),
    headers: keep(emails.headers, finished),
    attachmentSetId: keep(emails.attachmentSetId, finished),
    mimeId: keep(emails.mimeId, finished),
    contentDroppedAt: keep(emails.contentDroppedAt, sql`${finished} AND ${emails.contentDroppedAt} IS NULL`, sql`now()`),
  }).where(and(eq(emails.projectId, projectId), or(
    eq(emails.contactId, contactId),
    // The expression of emails_recipients_idx, so the planner uses it.
    sql`${emails.toList} IS NOT NULL AND (coalesce(to_list, '[]'::jsonb) || coalesce(cc, '[]'::jsonb) || coalesce(bcc, '[]'::jsonb)) @> ${JSON.stringify([{ email: address }])}::jsonb`,
  ))).returning();
  await dropUnsharedContent(db, withContent);
  const ids = new Set(cancelled.map((r) => r.id));
  await emitEmailEvents(db, erased.filter((r) => ids.has(r.id)).map((email) => ({ email, type: 'email.cancelled' as const })));
}
