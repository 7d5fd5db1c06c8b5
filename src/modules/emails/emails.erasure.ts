// Erasure of a deleted contact from the email records: the records stay for counts (status, timestamps,
// opens, clicks, campaign figures), the address leaves them. Run by the contacts module through the manifest's
// `contactErasure`, in the transaction that deletes the contact; suppressions of the address are not touched.
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/emails.ts';
import { FINAL_STATUSES, fromOf, target } from './emails.lifecycle.ts';
import { dropUnsharedContent } from './emails.retention.ts';
import { emitEmailEvents } from './emails.webhooks.ts';

/** What an erased address becomes: address-shaped (clients that parse `to` keep working), never deliverable (RFC 2606). */
export const ERASED_ADDRESS = 'erased@erased.invalid';

/** Why a contact's unsent emails were cancelled. */
export const CONTACT_DELETED = 'CONTACT_DELETED';

/** The addresses as one regular expression (PostgreSQL's, used case-insensitively), for the texts that quote them (subjects, SMTP replies). */
function addressesPattern(addresses: string[]): string {
  return addresses.map((address) => address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** An array as one parameter (a PostgreSQL array literal, each element quoted), however many values it holds. */
const arrayOf = (values: string[], type: 'text' | 'jsonb'): SQL =>
  sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::${sql.raw(type)}[]`;

/** A jsonb list of `{email, name}` with the addresses' entries replaced by the erased address (no name). */
function erasedList(column: AnyColumn, addresses: SQL): SQL {
  return sql`CASE WHEN ${column} IS NULL THEN NULL ELSE coalesce((SELECT jsonb_agg(CASE WHEN lower(x->>'email') = ANY(${addresses})
    THEN jsonb_build_object('email', ${ERASED_ADDRESS}::text) ELSE x END ORDER BY i) FROM jsonb_array_elements(${column}) WITH ORDINALITY AS t(x, i)), '[]'::jsonb) END`;
}

/** The envelope (a jsonb list of addresses) with the addresses replaced by the erased address. */
function erasedEnvelope(addresses: SQL): SQL {
  return sql`CASE WHEN ${emails.rcpt} IS NULL THEN NULL ELSE coalesce((SELECT jsonb_agg(CASE WHEN lower(x #>> '{}') = ANY(${addresses})
    THEN to_jsonb(${ERASED_ADDRESS}::text) ELSE x END ORDER BY i) FROM jsonb_array_elements(${emails.rcpt}) WITH ORDINALITY AS t(x, i)), '[]'::jsonb) END`;
}

/**
 * Side effect: removes deleted contacts' addresses from the project's emails, for many contacts in one pass (a bulk
 * delete's batch as one set of statements). Their own emails (contactId) that had not gone out are cancelled
 * (`CONTACT_DELETED`, `email.cancelled`); in all of them the recipient becomes ERASED_ADDRESS, the recipient's name
 * goes, and finished ones lose their bodies, variables, headers, attachments and MIME (personal content), and the link
 * targets retention kept of them (a link may carry the address). Messages to
 * several that listed an address under another contact's email keep their content; the address is replaced in their
 * To, Cc, Bcc and envelope. Where a subject, an SMTP reply or a status reason quotes an address, it is replaced too.
 */
export async function eraseContactEmails(opts: { db: Executor; projectId: string; contacts: { id: string; email: string }[] }): Promise<void> {
  const { db, projectId } = opts;
  if (opts.contacts.length === 0) return;
  const contactIds = opts.contacts.map((c) => c.id);
  const lowered = [...new Set(opts.contacts.map((c) => c.email.toLowerCase()))];
  const addresses = arrayOf(lowered, 'text');
  const own = and(eq(emails.projectId, projectId), inArray(emails.contactId, contactIds));
  const cancelled = await db.update(emails)
    .set({ status: target('cancel', 'CANCELLED'), statusReason: CONTACT_DELETED, nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(own, inArray(emails.status, fromOf('cancel')))).returning({ id: emails.id });
  const withContent = await db.select({ setId: emails.attachmentSetId, mimeId: emails.mimeId }).from(emails)
    .where(and(own, inArray(emails.status, [...FINAL_STATUSES]), sql`(${emails.attachmentSetId} IS NOT NULL OR ${emails.mimeId} IS NOT NULL)`));
  const mine = sql`(${inArray(emails.contactId, contactIds)})`;
  const finished = sql`(${mine} AND ${emails.status} IN (${sql.join(FINAL_STATUSES.map((s) => sql`${s}`), sql`, `)}))`;
  const named = sql`(${mine} OR lower(${emails.toEmail}) = ANY(${addresses}))`;
  const keep = <T extends AnyColumn>(column: T, when: SQL, value: SQL = sql`NULL`) => sql`CASE WHEN ${when} THEN ${value} ELSE ${column} END`;
  const pattern = addressesPattern(lowered);
  const listed = arrayOf(lowered.map((address) => JSON.stringify([{ email: address }])), 'jsonb');
  const erased = await db.update(emails).set({
    toEmail: keep(emails.toEmail, named, sql`${ERASED_ADDRESS}::text`),
    toName: keep(emails.toName, named),
    toList: erasedList(emails.toList, addresses),
    cc: erasedList(emails.cc, addresses),
    bcc: erasedList(emails.bcc, addresses),
    rcpt: erasedEnvelope(addresses),
    subject: sql`regexp_replace(${emails.subject}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`,
    lastError: sql`regexp_replace(${emails.lastError}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`,
    statusReason: sql`regexp_replace(${emails.statusReason}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`,
    html: keep(emails.html, finished),
    text: keep(emails.text, finished),
    variables: keep(emails.variables, finished),
    headers: keep(emails.headers, finished),
    attachmentSetId: keep(emails.attachmentSetId, finished),
    mimeId: keep(emails.mimeId, finished),
    linkTargets: keep(emails.linkTargets, finished),
    contentDroppedAt: keep(emails.contentDroppedAt, sql`${finished} AND ${emails.contentDroppedAt} IS NULL`, sql`now()`),
  }).where(and(eq(emails.projectId, projectId), or(
    inArray(emails.contactId, contactIds),
    // The expression of emails_recipients_idx, so the planner uses it (one index probe per address).
    sql`${emails.toList} IS NOT NULL AND (coalesce(to_list, '[]'::jsonb) || coalesce(cc, '[]'::jsonb) || coalesce(bcc, '[]'::jsonb)) @> ANY(${listed})`,
  ))).returning();
  await dropUnsharedContent(db, withContent);
  const ids = new Set(cancelled.map((r) => r.id));
  await emitEmailEvents(db, erased.filter((r) => ids.has(r.id)).map((email) => ({ email, type: 'email.cancelled' as const })));
}
