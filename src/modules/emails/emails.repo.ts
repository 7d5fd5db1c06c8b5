import { and, asc, eq, getTableColumns, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailAttachments, emailMime, emails, type EmailStatus } from '../../db/schema/emails.ts';
import { bytesOf } from '../../db/schema/bytea.ts';
import { jsonRowsInsert } from '../../db/json-insert.ts';
import { rowsOf } from '../../db/rows.ts';
import { emailIdInMessageId, messageIdFor } from '../../mail/compose.ts';
import { listPage } from '../../db/list-page.ts';
import { addressSearchForms } from '../../lib/email-address.ts';

import { EMAIL_TRANSITIONS, fromOf, target } from './emails.lifecycle.ts';
import { EMAIL_LIST_OMITS, type EmailRow, type NewEmail } from './emails.types.ts';

export type { EmailRow, EmailSummaryRow, NewEmail } from './emails.types.ts';


// Side effect: creates email rows (one statement for any number of recipients).
export async function insertEmails(db: Executor, rows: NewEmail[]): Promise<void> {
  if (rows.length > 0) await db.insert(emails).values(rows);
}

// Side effect: creates a campaign's email rows, skipping contacts that have one already (unique index
// emails_campaign_contact_idx); the rows travel as one JSON parameter whatever their number.
export async function insertCampaignEmails(db: Executor, rows: NewEmail[]): Promise<{ id: string; status: string }[]> {
  if (rows.length === 0) return [];
  return rowsOf<{ id: string; status: string }>(await db.execute(jsonRowsInsert(emails, rows, sql`
    ON CONFLICT (source_id, contact_id) WHERE source_type = 'CAMPAIGN' DO NOTHING RETURNING id, status`)));
}

// Side effect: stores a request's attachments once, shared by its messages.
export async function insertAttachments(db: Executor, rows: (typeof emailAttachments.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(emailAttachments).values(rows);
}

// Side effect: stores a submitted message (SMTP relay) once, shared by its recipients' emails.
export async function insertMime(db: Executor, row: typeof emailMime.$inferInsert): Promise<void> {
  await db.insert(emailMime).values(row);
}

export async function findMime(db: Executor, id: string): Promise<Buffer | null> {
  const [row] = await db.select({ content: bytesOf(emailMime.content) }).from(emailMime).where(eq(emailMime.id, id));
  return row?.content ?? null;
}

/** A submitted message's size in bytes, without reading it. */
export async function findMimeBytes(db: Executor, id: string): Promise<number> {
  const [row] = await db.select({ bytes: sql<string>`octet_length(${emailMime.content})` }).from(emailMime).where(eq(emailMime.id, id));
  return Number(row?.bytes ?? 0);
}

export async function findAttachments(db: Executor, setId: string) {
  return db.select({ ...getTableColumns(emailAttachments), content: bytesOf(emailAttachments.content) }).from(emailAttachments)
    .where(eq(emailAttachments.setId, setId)).orderBy(asc(emailAttachments.position));
}

/** A set's size in bytes as stored (before base64), without reading the contents. */
export async function findAttachmentBytes(db: Executor, setId: string): Promise<number> {
  const [row] = await db.select({ bytes: sql<string>`coalesce(sum(${emailAttachments.size}), 0)` }).from(emailAttachments).where(eq(emailAttachments.setId, setId));
  return Number(row?.bytes ?? 0);
}

export async function findEmail(db: Executor, projectId: string, id: string): Promise<EmailRow | null> {
  const [row] = await db.select().from(emails).where(and(eq(emails.projectId, projectId), eq(emails.id, id)));
  return row ?? null;
}

/** An email by its Message-ID header value (`<id@domain>`), for provider notifications that quote it. */
export async function findEmailByMessageId(db: Executor, messageId: string): Promise<EmailRow | null> {
  const id = emailIdInMessageId(messageId);
  if (id) {
    const row = await findEmailById(db, id);
    return row && messageIdFor(row) === messageId.trim() ? row : null;
  }
  const [row] = await db.select().from(emails).where(eq(emails.messageId, messageId)).limit(1);
  return row ?? null;
}

/** An email by id alone, for the worker and signed links (which carry no project). */
export async function findEmailById(db: Executor, id: string): Promise<EmailRow | null> {
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row ?? null;
}

export interface EmailFilters {
  status?: EmailStatus | undefined;
  contactId?: string | undefined;
  sourceId?: string | undefined;
  /** Lower-cased start of the recipient address (a whole address matches itself). */
  to?: string | undefined;
  /** `name:value`: emails carrying that tag. */
  tag?: string | undefined;
}

/** `name:value` as a tag (the value may hold more colons; no colon is a name with an empty value). */
function tagOf(filter: string): { name: string; value: string } {
  const at = filter.indexOf(':');
  return at < 0 ? { name: filter, value: '' } : { name: filter.slice(0, at), value: filter.slice(at + 1) };
}

export async function listEmails(db: Executor, projectId: string, opts: EmailFilters & { limit: number; cursor?: string | undefined }) {
  const filters: (SQL | undefined)[] = [
    eq(emails.projectId, projectId),
    opts.status ? eq(emails.status, opts.status) : undefined,
    opts.contactId ? eq(emails.contactId, opts.contactId) : undefined,
    // A prefix of the address as typed, or with its internationalised domain in punycode (the stored form).
    opts.to ? or(...addressSearchForms(opts.to).map((form) => sql`left(lower(${emails.toEmail}), ${form.length}::int) = ${form}`)) : undefined,
    // `IS NOT NULL` names the tag index's predicate, so the planner uses it.
    opts.tag ? sql`${emails.tags} IS NOT NULL AND ${emails.tags} @> ${JSON.stringify([tagOf(opts.tag)])}::jsonb` : undefined,
    // Two partial indexes hold the source ids (campaign emails, the others): name both sides so each is used.
    opts.sourceId ? or(and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, opts.sourceId)), and(ne(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, opts.sourceId))) : undefined,
  ];
  return listPage(db, emails, and(...filters), opts, { omit: EMAIL_LIST_OMITS });
}

/** The transitions with a single target, which transitionEmail makes. */
export type SingleTransition = 'defer' | 'bounce' | 'fail' | 'suppress' | 'deliver' | 'complain';

// Side effect: makes transition `name` of one email when its status allows it; null = it was not in an allowed
// state. With `owner`, only while that worker holds the email's lease. Leaving SENDING always ends the lease;
// `retryAt` makes a DEFERRED email due again at that time.
export async function transitionEmail(
  db: Executor,
  id: string,
  name: SingleTransition,
  set: Partial<Pick<NewEmail, 'lastError' | 'statusReason' | 'sentAt' | 'bouncedAt'>> & { owner?: string; retryAt?: Date } = {},
): Promise<EmailRow | null> {
  const { owner, retryAt, ...fields } = set;
  const [row] = await db.update(emails).set({
    ...fields,
    status: target(name, EMAIL_TRANSITIONS[name].to[0]),
    updatedAt: sql`now()`,
    leaseOwner: null,
    leaseExpiresAt: null,
    nextAttemptAt: retryAt ?? null,
  }).where(and(
    eq(emails.id, id),
    inArray(emails.status, fromOf(name)),
    owner === undefined ? undefined : eq(emails.leaseOwner, owner),
  )).returning();
  return row ?? null;
}
