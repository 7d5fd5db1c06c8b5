import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailAttachments, emails, suppressions, type EmailStatus } from '../../db/schema/emails.ts';
import { events } from '../../db/schema/events.ts';
import { contacts } from '../../db/schema/contacts.ts';
import { afterCursor } from '../../lib/pagination.ts';

export type EmailRow = typeof emails.$inferSelect;
export type NewEmail = typeof emails.$inferInsert;

/** Allowed status changes; every update below is guarded by one of these lists. */
export const EMAIL_TRANSITIONS = {
  SENDING: ['QUEUED', 'DEFERRED', 'SENDING'],
  SENT: ['SENDING'],
  // Reported by the provider after the handoff (SES Delivery); never guessed.
  DELIVERED: ['SENT'],
  // An abuse report (ARF, SES Complaint) about a message that reached the mailbox.
  COMPLAINED: ['SENT', 'DELIVERED'],
  DEFERRED: ['SENDING'],
  BOUNCED: ['SENDING', 'SENT', 'DELIVERED'],
  FAILED: ['QUEUED', 'DEFERRED', 'SENDING'],
  // SENDING too: a retry after a crash finds its address suppressed or unsubscribed meanwhile, and must not stay SENDING.
  SUPPRESSED: ['QUEUED', 'DEFERRED', 'SENDING'],
  CANCELLED: ['QUEUED', 'DEFERRED'],
} as const satisfies Partial<Record<EmailStatus, readonly EmailStatus[]>>;

export const FINAL_STATUSES: readonly EmailStatus[] = ['SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED', 'CANCELLED'];

// Side effect: creates email rows (one statement for any number of recipients).
export async function insertEmails(db: Executor, rows: NewEmail[]): Promise<void> {
  if (rows.length > 0) await db.insert(emails).values(rows);
}

// Side effect: stores a request's attachments once, shared by its messages.
export async function insertAttachments(db: Executor, rows: (typeof emailAttachments.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(emailAttachments).values(rows);
}

export async function findAttachments(db: Executor, setId: string) {
  return db.select().from(emailAttachments).where(eq(emailAttachments.setId, setId)).orderBy(asc(emailAttachments.position));
}

export async function findEmail(db: Executor, projectId: string, id: string): Promise<EmailRow | null> {
  const [row] = await db.select().from(emails).where(and(eq(emails.projectId, projectId), eq(emails.id, id)));
  return row ?? null;
}

/** An email by its Message-ID header value (`<id@domain>`), for provider notifications that quote it. */
export async function findEmailByMessageId(db: Executor, messageId: string): Promise<EmailRow | null> {
  const [row] = await db.select().from(emails).where(eq(emails.messageId, messageId)).limit(1);
  return row ?? null;
}

/** An email by id alone, for the worker and signed links (which carry no project). */
export async function findEmailById(db: Executor, id: string): Promise<EmailRow | null> {
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row ?? null;
}

/** An email with whether its recipient is on the project's suppression list: one query per delivery. */
export async function findEmailForDelivery(db: Executor, id: string): Promise<{ email: EmailRow; suppressed: boolean; unsubscribed: boolean } | null> {
  const [row] = await db.select({
    email: emails,
    suppressed: sql<boolean>`${suppressions.email} IS NOT NULL`,
    // Marketing mail queued before its contact unsubscribed must not go out (R7).
    unsubscribed: sql<boolean>`${emails.marketing} AND ${contacts.subscribed} IS FALSE`,
  }).from(emails)
    .leftJoin(suppressions, and(eq(suppressions.projectId, emails.projectId), eq(suppressions.email, emails.toEmail)))
    .leftJoin(contacts, eq(contacts.id, emails.contactId))
    .where(eq(emails.id, id));
  return row ? { email: row.email, suppressed: Boolean(row.suppressed), unsubscribed: Boolean(row.unsubscribed) } : null;
}

// Side effect: SENDING → SENT and the contact's `email.sent` event, in one statement (the delivery hot path).
export async function markSent(db: Executor, email: EmailRow, eventId: string, response: string | null): Promise<void> {
  await db.execute(sql`
    WITH sent AS (
      UPDATE ${emails} SET status = 'SENT', sent_at = now(), updated_at = now(), last_error = NULL, status_reason = ${response}
      WHERE id = ${email.id} AND status = 'SENDING'
      RETURNING id, project_id, contact_id, subject
    )
    INSERT INTO ${events} (id, project_id, contact_id, name, data, created_at)
    SELECT ${eventId}, project_id, contact_id, 'email.sent', jsonb_build_object('emailId', id, 'subject', subject), now()
    FROM sent WHERE contact_id IS NOT NULL`);
}

export interface EmailFilters {
  status?: EmailStatus | undefined;
  contactId?: string | undefined;
  sourceId?: string | undefined;
}

export async function listEmails(db: Executor, projectId: string, opts: EmailFilters & { limit: number; cursor?: string | undefined }) {
  const filters: (SQL | undefined)[] = [
    eq(emails.projectId, projectId),
    opts.status ? eq(emails.status, opts.status) : undefined,
    opts.contactId ? eq(emails.contactId, opts.contactId) : undefined,
    opts.sourceId ? eq(emails.sourceId, opts.sourceId) : undefined,
  ];
  const rows = await db.select().from(emails)
    .where(and(...filters, afterCursor(emails.createdAt, emails.id, opts.cursor)))
    .orderBy(desc(emails.createdAt), desc(emails.id))
    .limit(opts.limit + 1);
  const [total] = await db.select({ n: count() }).from(emails).where(and(...filters));
  return { rows, total: total?.n ?? 0 };
}

// Side effect: moves an email to `to` when its status allows it; null = it was not in an allowed state.
export async function transitionEmail(
  db: Executor,
  id: string,
  to: keyof typeof EMAIL_TRANSITIONS,
  set: Partial<Pick<NewEmail, 'lastError' | 'statusReason' | 'sentAt' | 'bouncedAt'>> & { countAttempt?: boolean } = {},
): Promise<EmailRow | null> {
  const { countAttempt, ...fields } = set;
  const [row] = await db.update(emails).set({
    ...fields,
    status: to,
    updatedAt: sql`now()`,
    ...(countAttempt ? { attempts: sql`${emails.attempts} + 1` } : {}),
  }).where(and(eq(emails.id, id), inArray(emails.status, [...EMAIL_TRANSITIONS[to]]))).returning();
  return row ?? null;
}
