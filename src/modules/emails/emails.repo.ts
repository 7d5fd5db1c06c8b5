// Every query of the emails tables (emails, email_contents, email_attachments, email_mime, link_clicks), each a named
// function: the other files of the module hold the services around them (transactions, events, audit, caches), and
// other modules reach these tables only through the front door. A status is set only through a named transition.
import { and, asc, eq, getTableColumns, inArray, isNull, lt, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  emailAttachments,
  emailContents,
  emailMime,
  emails,
  linkClicks,
  type EmailStatus,
} from '../../db/schema/emails.ts';
import { bytesOf } from '../../db/schema/bytea.ts';
import { jsonRowsInsert } from '../../db/json-insert.ts';
import { rowsOf } from '../../db/rows.ts';
import { emailIdInMessageId, messageIdFor } from '../../mail/compose.ts';
import { listPage } from '../../db/list-page.ts';
import { addressSearchForms } from '../../lib/email-address.ts';
import { eventsFrom } from '../events/index.ts';
import { marketingReceivedStatement } from '../contacts/index.ts';
import { ACTIVITY_SQL, EMAIL_ACTIVITIES, HUMAN_ACTIVITY_SQL, type EmailActivity } from './emails.activity.ts';
import { EMAIL_TRANSITIONS, FINAL_STATUSES, fromOf, fromStatuses, target } from './emails.lifecycle.ts';
import {
  EMAIL_LIST_OMITS,
  ERASED_ADDRESS,
  type CampaignCounts,
  type ContentRow,
  type EmailRow,
  type HoldReason,
  type NewEmail,
} from './emails.types.ts';

export type { EmailRow, EmailSummaryRow, NewEmail } from './emails.types.ts';

// ---- Intake: new emails, their attachments, submitted messages and shared bodies ----

/** Creates email rows (one statement for any number of recipients). */
export async function insertEmails(db: Executor, rows: NewEmail[]): Promise<void> {
  if (rows.length > 0) await db.insert(emails).values(rows);
}

/**
 * Creates a campaign's email rows, skipping contacts that have one already (unique index emails_campaign_contact_idx);
 * the rows travel as one JSON parameter whatever their number.
 */
export async function insertCampaignEmails(db: Executor, rows: NewEmail[]): Promise<{ id: string; status: string }[]> {
  if (rows.length === 0) return [];
  return rowsOf<{ id: string; status: string }>(
    await db.execute(
      jsonRowsInsert(
        emails,
        rows,
        sql`
    ON CONFLICT (source_id, contact_id) WHERE source_type = 'CAMPAIGN' DO NOTHING RETURNING id, status`,
      ),
    ),
  );
}

/** Stores a request's attachments once, shared by its messages. */
export async function insertAttachments(db: Executor, rows: (typeof emailAttachments.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(emailAttachments).values(rows);
}

/** Stores a submitted message (SMTP relay) once, shared by its recipients' emails. */
export async function insertMime(db: Executor, row: typeof emailMime.$inferInsert): Promise<void> {
  await db.insert(emailMime).values(row);
}

/** Stores a body shared by many emails (a campaign's subject, html and text templates). */
export async function insertContent(db: Executor, row: typeof emailContents.$inferInsert): Promise<void> {
  await db.insert(emailContents).values(row);
}

/** A shared body by id, or null. */
export async function findContent(db: Executor, id: string): Promise<ContentRow | null> {
  const [row] = await db.select().from(emailContents).where(eq(emailContents.id, id));
  return row ?? null;
}

/** A submitted message's bytes, or null. */
export async function findMime(db: Executor, id: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ content: bytesOf(emailMime.content) })
    .from(emailMime)
    .where(eq(emailMime.id, id));
  return row?.content ?? null;
}

/** A submitted message's size in bytes, without reading it. */
export async function findMimeBytes(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`octet_length(${emailMime.content})` })
    .from(emailMime)
    .where(eq(emailMime.id, id));
  return Number(row?.bytes ?? 0);
}

/** A set's attachments with their contents, in order. */
export async function findAttachments(db: Executor, setId: string) {
  return db
    .select({ ...getTableColumns(emailAttachments), content: bytesOf(emailAttachments.content) })
    .from(emailAttachments)
    .where(eq(emailAttachments.setId, setId))
    .orderBy(asc(emailAttachments.position));
}

/** A set's attachments without their contents, in order. */
export async function findAttachmentMeta(db: Executor, setId: string) {
  const { content: _content, ...columns } = getTableColumns(emailAttachments);
  return db
    .select(columns)
    .from(emailAttachments)
    .where(eq(emailAttachments.setId, setId))
    .orderBy(asc(emailAttachments.position));
}

/** One attachment of a set, with its contents; null when the set has none at that position. */
export async function findAttachmentAt(db: Executor, setId: string, position: number) {
  const [row] = await db
    .select({ ...getTableColumns(emailAttachments), content: bytesOf(emailAttachments.content) })
    .from(emailAttachments)
    .where(and(eq(emailAttachments.setId, setId), eq(emailAttachments.position, position)));
  return row ?? null;
}

/** A set's size in bytes as stored (before base64), without reading the contents. */
export async function findAttachmentBytes(db: Executor, setId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${emailAttachments.size}), 0)` })
    .from(emailAttachments)
    .where(eq(emailAttachments.setId, setId));
  return Number(row?.bytes ?? 0);
}

// ---- Reading emails ----

/** One of the project's emails, or null. */
export async function findEmail(db: Executor, projectId: string, id: string): Promise<EmailRow | null> {
  const [row] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.projectId, projectId), eq(emails.id, id)));
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

/** The emails with these ids, in no particular order (any project). */
export interface EmailFilters {
  status?: EmailStatus | undefined;
  contactId?: string | undefined;
  sourceId?: string | undefined;
  /** Lower-cased start of the recipient address (a whole address matches itself). */
  to?: string | undefined;
  /** `name:value`: emails carrying that tag. */
  tag?: string | undefined;
  /** Exactly this status reason (SNOOZED, FREQUENCY_CAP, TOPIC, UNSUBSCRIBED…). */
  reason?: string | undefined;
}

/** `name:value` as a tag (the value may hold more colons; no colon is a name with an empty value). */
function tagOf(filter: string): { name: string; value: string } {
  const at = filter.indexOf(':');
  return at < 0 ? { name: filter, value: '' } : { name: filter.slice(0, at), value: filter.slice(at + 1) };
}

/** A page of the project's emails, newest first, without bodies, by status, contact, source, recipient or tag. */
export async function listEmails(
  db: Executor,
  projectId: string,
  opts: EmailFilters & { limit: number; cursor?: string | undefined },
) {
  const toForm = (form: string) => sql`left(lower(${emails.toEmail}), ${form.length}::int) = ${form}`;
  const ofTag = (tag: string) =>
    sql`${emails.tags} IS NOT NULL AND ${emails.tags} @> ${JSON.stringify([tagOf(tag)])}::jsonb`;
  const ofSource = (sourceId: string) =>
    or(
      and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, sourceId)),
      and(ne(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, sourceId)),
    );
  const filters: (SQL | undefined)[] = [
    eq(emails.projectId, projectId),
    opts.status ? eq(emails.status, opts.status) : undefined,
    opts.reason ? eq(emails.statusReason, opts.reason) : undefined,
    opts.contactId ? eq(emails.contactId, opts.contactId) : undefined,
    // A prefix of the address as typed, or with its internationalised domain in punycode (the stored form).
    opts.to ? or(...addressSearchForms(opts.to).map(toForm)) : undefined,
    // `IS NOT NULL` names the tag index's predicate, so the planner uses it.
    opts.tag ? ofTag(opts.tag) : undefined,
    // Two partial indexes hold the source ids (campaign emails, the others): name both sides so each is used.
    opts.sourceId ? ofSource(opts.sourceId) : undefined,
  ];
  return listPage(db, emails, and(...filters), opts, { omit: EMAIL_LIST_OMITS });
}

// ---- Single transitions ----

/** The transitions with a single target, which transitionEmail makes. */
export type SingleTransition = 'defer' | 'bounce' | 'fail' | 'suppress' | 'deliver' | 'complain';

type TransitionFields = Partial<Pick<NewEmail, 'lastError' | 'statusReason' | 'sentAt' | 'bouncedAt'>>;

/**
 * Makes transition `name` of one email when its status allows it; null = it was not in an allowed state. With `owner`,
 * only while that worker holds the email's lease. Leaving SENDING always ends the lease; `retryAt` makes a DEFERRED
 * email due again at that time.
 */
export async function transitionEmail(
  db: Executor,
  id: string,
  name: SingleTransition,
  set: TransitionFields & { owner?: string; retryAt?: Date } = {},
): Promise<EmailRow | null> {
  const { owner, retryAt, ...fields } = set;
  const [row] = await db
    .update(emails)
    .set({
      ...fields,
      status: target(name, EMAIL_TRANSITIONS[name].to[0]),
      updatedAt: sql`now()`,
      leaseOwner: null,
      leaseExpiresAt: null,
      nextAttemptAt: retryAt ?? null,
    })
    .where(
      and(
        eq(emails.id, id),
        inArray(emails.status, fromOf(name)),
        owner === undefined ? undefined : eq(emails.leaseOwner, owner),
      ),
    )
    .returning();
  return row ?? null;
}

// ---- The delivery queue: claims under a lease, renewals, holds ----
// A SENDING email is owned by the worker named in lease_owner until lease_expires_at; after that any worker may
// reclaim it (its owner died). A claim writes only columns no index holds (status is not in the due index's
// predicate: the generated `queued` column is), so PostgreSQL makes it a HOT update: one row version more, no
// index entries.

/**
 * An email (alias `m`) a worker may claim now: queued and due, and when SENDING, its lease has run out. The
 * claim and the backlog gauge (countDueEmails) count the same emails.
 */
const dueEmail = sql`m.queued AND m.next_attempt_at <= now() AND (m.status <> 'SENDING' OR m.lease_expires_at <=
  now())`;

/** `id1::uuid, id2::uuid, …` for an IN list. */
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export interface ClaimOptions {
  owner: string;
  limit: number;
  leaseSeconds: number;
  /** With pacing on: projects whose next slot is further away than this are not claimed from now. */
  pacingHorizonMs?: number;
}

/** A claimed email as it is now (SENDING), its status before the claim, and what forbids sending it now. */
export type ClaimedRow = EmailRow & {
  was: string;
  suppressed: boolean;
  unsubscribed: boolean;
  snoozed: boolean;
  disabled: boolean;
};

/**
 * Claims up to `limit` due emails in one statement, transactional before workflow before campaign mail (then oldest
 * first), skipping rows other workers hold: they become SENDING under this owner's lease. The statement returns the
 * claimed rows whole, so no second read follows it.
 */
export async function claimDueEmails(db: Executor, opts: ClaimOptions): Promise<ClaimedRow[]> {
  const horizon = opts.pacingHorizonMs === undefined ? null : sql`${`${opts.pacingHorizonMs} milliseconds`}::interval`;
  const paced =
    horizon === null
      ? sql``
      : sql`AND NOT EXISTS (
      SELECT 1 FROM send_pacing p WHERE p.project_id = m.project_id AND p.next_at > now() + ${horizon})`;
  const picked = sql`
      SELECT m.id, m.status AS was, CASE WHEN m.marketing THEN m.contact_id END AS marketing_contact_id FROM emails m
      WHERE ${dueEmail} ${paced}
      ORDER BY m.priority DESC NULLS LAST, m.next_attempt_at
      LIMIT ${opts.limit}
      FOR UPDATE SKIP LOCKED`;
  const e = emails;
  return (
    db
      .update(emails)
      .set({
        status: target('claim', 'SENDING'),
        leaseOwner: opts.owner,
        attempts: sql`${e.attempts} + 1`,
        updatedAt: sql`now()`,
        leaseExpiresAt: sql`now() + ${`${opts.leaseSeconds} seconds`}::interval`,
      })
      // The contact of a marketing email, read once for both checks (unsubscribed, snoozed).
      .from(sql`(${picked}) AS picked LEFT JOIN contacts c ON c.id = picked.marketing_contact_id`)
      .where(sql`${e.id} = picked.id`)
      .returning({
        ...getTableColumns(emails),
        was: sql<string>`picked.was`,
        // A message to several: suppressed when every address of its envelope is.
        suppressed: sql<boolean>`CASE WHEN ${e.rcpt} IS NULL THEN EXISTS (SELECT 1 FROM suppressions s
          WHERE s.project_id = ${e.projectId} AND s.email = ${e.toEmail})
        ELSE NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(${e.rcpt}) r(address)
          WHERE NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.project_id = ${e.projectId} AND s.email = r.address))
        END`,
        unsubscribed: sql<boolean>`coalesce(c.subscribed IS FALSE, false)`,
        snoozed: sql<boolean>`coalesce(c.snoozed_until > now(), false)`,
        disabled: sql<boolean>`EXISTS (SELECT 1 FROM projects p WHERE p.id = ${e.projectId} AND p.disabled)`,
      })
  );
}

/** Extends this owner's leases on the emails it still works on (one statement). */
export async function renewEmailLeases(
  db: Executor,
  owner: string,
  ids: string[],
  leaseSeconds: number,
): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE emails SET lease_expires_at = now() + ${`${leaseSeconds} seconds`}::interval
    WHERE id IN (${idList(ids)}) AND status = 'SENDING' AND lease_owner = ${owner}`);
}

/** The project's mail held for `reason` is due at once; answers how many emails. */
export async function releaseHeldProjectEmails(db: Executor, projectId: string, reason: HoldReason): Promise<number> {
  return rowsOf(
    await db.execute(sql`
    UPDATE emails SET next_attempt_at = now(), status_reason = NULL, updated_at = now()
    WHERE project_id = ${projectId}::uuid AND status = 'QUEUED' AND status_reason = ${reason}
    RETURNING id`),
  ).length;
}

/**
 * Gives claimed emails back as QUEUED with the hold named in status_reason, looked at again after `recheckSeconds` (or
 * at once when the change that lifts the hold releases it); the attempt does not count.
 */
export async function holdClaimedEmails(
  db: Executor,
  owner: string,
  ids: string[],
  reason: HoldReason,
  until: number | Date,
): Promise<void> {
  if (ids.length === 0) return;
  const due =
    until instanceof Date ? sql`${until.toISOString()}::timestamptz` : sql`now() + ${`${until} seconds`}::interval`;
  await db.execute(sql`
    UPDATE emails SET status = ${target('hold', 'QUEUED')}, status_reason = ${reason}, lease_owner = NULL,
      lease_expires_at = NULL, attempts = greatest(attempts - 1, 0),
      next_attempt_at = ${due}, updated_at = now()
    WHERE id IN (${idList(ids)}) AND ${fromStatuses('hold')} AND lease_owner = ${owner}`);
}

/**
 * Every transport of its route is down: DEFERRED until `retryAt` with the reason, the claim's attempt given back
 * (waiting for a transport never uses up the email's retries). Null when this owner no longer holds it.
 */
export async function awaitTransport(
  db: Executor,
  owner: string,
  id: string,
  lastError: string,
  retryAt: Date,
): Promise<EmailRow | null> {
  const [row] = await db
    .update(emails)
    .set({
      status: target('awaitTransport', 'DEFERRED'),
      statusReason: 'TRANSPORT_DOWN',
      lastError,
      attempts: sql`greatest(${emails.attempts} - 1, 0)`,
      leaseOwner: null,
      leaseExpiresAt: null,
      nextAttemptAt: retryAt,
      updatedAt: sql`now()`,
    })
    .where(and(eq(emails.id, id), fromStatuses('awaitTransport'), eq(emails.leaseOwner, owner)))
    .returning();
  return row ?? null;
}

/** Gives claimed emails back untouched (a worker that stops before starting them). */
export async function giveBackClaimedEmails(db: Executor, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE emails SET status = CASE WHEN attempts > 1 THEN ${target('giveBack', 'DEFERRED')} ELSE
      ${target('giveBack', 'QUEUED')} END,
      lease_owner = NULL, lease_expires_at = NULL, attempts = greatest(attempts - 1, 0), next_attempt_at = now(),
        updated_at = now()
    WHERE id IN (${idList(ids)}) AND ${fromStatuses('giveBack')} AND lease_owner = ${owner}`);
}

/** How many emails there are in each status (all projects). */
export async function countEmailStatuses(db: Executor): Promise<{ status: string; n: number }[]> {
  const rows = rowsOf<{ status: string; n: number }>(
    await db.execute(sql`SELECT status, count(*)::int AS n FROM emails GROUP BY status`),
  );
  return rows.map((row) => ({ status: row.status, n: Number(row.n) }));
}

/** Emails due and not claimed by any worker, and how long the oldest of them has waited (seconds). */
export async function countDueEmails(db: Executor): Promise<{ due: number; oldestSeconds: number }> {
  const [row] = rowsOf<{ n: number; age: number | null }>(
    await db.execute(sql`
    SELECT count(*)::int AS n,
      extract(epoch FROM now() - min(CASE WHEN m.status = 'SENDING' THEN m.lease_expires_at ELSE m.next_attempt_at
        END))::float8 AS age
    FROM emails m WHERE ${dueEmail}`),
  );
  return { due: Number(row?.n ?? 0), oldestSeconds: Math.max(0, Number(row?.age ?? 0)) };
}

// ---- Settling claimed emails ----

/** A sent email as the transport answered it, with the id SES gave the message (SES transport only). */
export interface SentRow {
  id: string;
  response: string | null;
  sesMessageId?: string | null | undefined;
  transportId?: string | null | undefined;
  provider?: string | null | undefined;
}

/**
 * SENDING → SENT for this owner's emails (with the id SES gave each), and the `email.sent` event of each that has a
 * (still existing) contact, in one statement; answers the ids it recorded.
 */
export async function recordSentEmails(db: Executor, owner: string, items: SentRow[]): Promise<string[]> {
  // One JSON parameter for the whole batch, not two per email.
  const done = JSON.stringify(
    items.map((i) => ({
      id: i.id,
      response: i.response,
      ses_message_id: i.sesMessageId ?? null,
      transport_id: i.transportId ?? null,
      provider: i.provider ?? null,
    })),
  );
  const result = await db.execute(sql`
      WITH done AS (SELECT * FROM jsonb_to_recordset(${done}::jsonb) AS d(id uuid, response text, ses_message_id text,
        transport_id text, provider text)),
      sent AS (
        UPDATE emails e SET status = ${target('send', 'SENT')}, sent_at = now(), updated_at = now(), last_error =
          NULL, status_reason = done.response, ses_message_id = done.ses_message_id,
          transport_id = done.transport_id, provider = done.provider,
          lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL
        FROM done WHERE e.id = done.id AND ${fromStatuses('send', sql`e.status`)} AND e.lease_owner = ${owner}
        RETURNING e.id, e.project_id, e.contact_id, e.subject, e.marketing
      ),
      logged AS (${eventsFrom(sql`
        SELECT herald_uuid7(), sent.project_id, sent.contact_id, 'email.sent', jsonb_build_object('emailId', sent.id,
          'subject', sent.subject)
        FROM sent JOIN contacts c ON c.id = sent.contact_id`)}
      ),
      marketed AS (SELECT contact_id FROM sent WHERE marketing AND contact_id IS NOT NULL),
      received AS (${marketingReceivedStatement(sql`marketed`)})
      SELECT id FROM sent`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

// Side effect: a held campaign email whose campaign is cancelled becomes CANCELLED; one whose campaign is paused goes
// back to the queue, held until the campaign resumes. Only while this worker holds it: true when it was settled.
export async function haltCampaignEmail(db: Executor, owner: string, id: string): Promise<boolean> {
  const result = await db.execute(sql`
    UPDATE emails e SET
      status = CASE WHEN c.status = 'CANCELLED' THEN ${target('haltCampaign', 'CANCELLED')}
        WHEN e.attempts > 1 THEN ${target('haltCampaign', 'DEFERRED')} ELSE ${target('haltCampaign', 'QUEUED')} END,
      status_reason = CASE WHEN c.status = 'CANCELLED' THEN 'CAMPAIGN_CANCELLED' ELSE 'CAMPAIGN_PAUSED' END,
      attempts = CASE WHEN c.status = 'CANCELLED' THEN e.attempts ELSE greatest(e.attempts - 1, 0) END,
      lease_owner = NULL, lease_expires_at = NULL, updated_at = now(),
      next_attempt_at = CASE WHEN c.status = 'CANCELLED' THEN NULL ELSE '9999-01-01T00:00:00Z'::timestamptz END
    FROM campaigns c
    WHERE e.id = ${id}::uuid AND ${fromStatuses('haltCampaign', sql`e.status`)} AND e.lease_owner = ${owner}
      AND c.id = e.source_id AND c.status IN ('CANCELLED', 'PAUSED')
    RETURNING e.id`);
  return rowsOf(result).length > 0;
}

// ---- Senders' changes to one email ----

/** Moves one of the project's SCHEDULED emails to `at` (it is due then); null when it is not SCHEDULED. */
export async function moveScheduledEmail(
  db: Executor,
  projectId: string,
  id: string,
  at: Date,
): Promise<EmailRow | null> {
  const [moved] = await db
    .update(emails)
    .set({ scheduledAt: at, nextAttemptAt: at, updatedAt: sql`now()` })
    .where(and(eq(emails.projectId, projectId), eq(emails.id, id), eq(emails.status, 'SCHEDULED')))
    .returning();
  return moved ?? null;
}

/**
 * One of the project's emails not on its way yet becomes CANCELLED (CANCELLED_BY_SENDER); null when its status does not
 * allow it.
 */
export async function cancelUnsentEmail(db: Executor, projectId: string, id: string): Promise<EmailRow | null> {
  const [cancelled] = await db
    .update(emails)
    .set({
      status: target('cancel', 'CANCELLED'),
      statusReason: 'CANCELLED_BY_SENDER',
      nextAttemptAt: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(emails.projectId, projectId), eq(emails.id, id), inArray(emails.status, fromOf('cancel'))))
    .returning();
  return cancelled ?? null;
}

// ---- A campaign's emails ----

/** Far enough ahead that a paused campaign's emails are never due; resuming sets their time again. */
const PAUSED_UNTIL = sql.raw(`'9999-01-01T00:00:00Z'::timestamptz`);

/** The campaign's emails, as conditions of one `and`. */
const ofCampaignEmails = (campaignId: string) =>
  [eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, campaignId)] as const;

/** Cancels the campaign's emails not on their way yet (SCHEDULED, QUEUED or DEFERRED); answers how many. */
export async function cancelCampaignEmailRows(
  db: Executor,
  campaignId: string,
): Promise<{ id: string; projectId: string }[]> {
  return db
    .update(emails)
    .set({ status: target('cancel', 'CANCELLED'), statusReason: 'CAMPAIGN_CANCELLED', updatedAt: sql`now()` })
    .where(and(...ofCampaignEmails(campaignId), inArray(emails.status, fromOf('cancel'))))
    .returning({ id: emails.id, projectId: emails.projectId });
}

/**
 * The campaign's emails not on their way yet (SCHEDULED, QUEUED, DEFERRED) stop being due (held as CAMPAIGN_PAUSED);
 * answers how many.
 */
export async function holdCampaignEmailRows(db: Executor, campaignId: string): Promise<number> {
  const rows = await db
    .update(emails)
    .set({ statusReason: 'CAMPAIGN_PAUSED', nextAttemptAt: PAUSED_UNTIL, updatedAt: sql`now()` })
    .where(and(...ofCampaignEmails(campaignId), inArray(emails.status, fromOf('cancel'))))
    .returning({ id: emails.id });
  return rows.length;
}

/** The campaign's held emails are due again: at once, or at their own time when it is later. */
export async function releaseCampaignEmailRows(db: Executor, campaignId: string): Promise<number> {
  const dueAgain = sql`greatest(now(), coalesce(${emails.scheduledAt}, now()))`;
  const rows = await db
    .update(emails)
    .set({ statusReason: null, nextAttemptAt: dueAgain, updatedAt: sql`now()` })
    .where(
      and(
        ...ofCampaignEmails(campaignId),
        eq(emails.statusReason, 'CAMPAIGN_PAUSED'),
        inArray(emails.status, fromOf('cancel')),
      ),
    )
    .returning({ id: emails.id });
  return rows.length;
}

/** True while an email of the campaign is QUEUED or SENDING (not handed over once yet). */
export async function hasUntriedCampaignEmailRows(db: Executor, campaignId: string): Promise<boolean> {
  const result = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM emails m
    WHERE m.source_id = ${campaignId}::uuid AND m.source_type = 'CAMPAIGN' AND m.status IN ('QUEUED', 'SENDING')) AS
      waiting`);
  return rowsOf<{ waiting: boolean }>(result)[0]?.waiting === true;
}

/** A row of counts with every value a number (the database answers bigint and numeric as strings). */
export const numbers = <T>(row: Record<string, number | string | null>): T =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as T;

/** The count columns of a campaign's figures over `emails m` (each definition shared with filters and stats). */
function countColumns(): SQL {
  const a = ACTIVITY_SQL;
  const h = HUMAN_ACTIVITY_SQL;
  return sql`count(*)::int AS recipients,
      (count(*) FILTER (WHERE ${a.sent.match}))::int AS sent,
      (count(*) FILTER (WHERE ${a.delivered.match}))::int AS delivered,
      (count(*) FILTER (WHERE ${a.opened.match}))::int AS opened,
      (count(*) FILTER (WHERE ${h.opened!.match}))::int AS "humanOpened",
      (count(*) FILTER (WHERE ${a.clicked.match}))::int AS clicked,
      (count(*) FILTER (WHERE ${h.clicked!.match}))::int AS "humanClicked",
      (count(*) FILTER (WHERE ${a.bounced.match}))::int AS bounced,
      (count(*) FILTER (WHERE ${a.complained.match}))::int AS complained,
      (count(*) FILTER (WHERE m.unsubscribed_at IS NOT NULL))::int AS unsubscribed,
      (count(*) FILTER (WHERE m.status = 'FAILED'))::int AS failed`;
}

const ofCampaign = (projectId: string, campaignId: string) =>
  sql`m.source_id = ${campaignId}::uuid AND m.source_type = 'CAMPAIGN' AND m.project_id = ${projectId}::uuid`;

/** Every count of a campaign's figures in one pass over its emails; with `settledSince`, those updated since. */
export async function countCampaignEmailRows(
  db: Executor,
  projectId: string,
  campaignId: string,
  settledSince?: Date | null,
): Promise<CampaignCounts> {
  const since = settledSince ? sql` AND m.updated_at >= ${settledSince.toISOString()}::timestamptz` : sql``;
  const campaign = ofCampaign(projectId, campaignId);
  const result = await db.execute(sql`SELECT ${countColumns()} FROM emails m WHERE ${campaign}${since}`);
  return numbers<CampaignCounts>(rowsOf<Record<string, number | string>>(result)[0]!);
}

/** The same counts per send-time group (optimized, holdout) of a campaign with send-time optimisation. */
export async function countSendTimeGroupRows(
  db: Executor,
  projectId: string,
  campaignId: string,
): Promise<Map<string, CampaignCounts>> {
  const result = await db.execute(sql`SELECT m.send_time_group AS "group", ${countColumns()} FROM emails m
    WHERE ${ofCampaign(projectId, campaignId)} AND m.send_time_group IS NOT NULL GROUP BY m.send_time_group`);
  const rows = rowsOf<Record<string, number | string>>(result);
  return new Map(rows.map(({ group, ...row }) => [String(group), numbers<CampaignCounts>(row)]));
}

// ---- Marketing holds: snooze and frequency cap ----

/**
 * The statuses of a marketing email that count toward the frequency cap: every one on its way or handed over (queued
 * and scheduled ones included, so two sends at once cannot both fill the last place). Suppressed, failed, cancelled
 * and bounced emails never reached the person and do not count.
 */
const CAPPED_STATUSES = ['SCHEDULED', 'QUEUED', 'SENDING', 'DEFERRED', 'SENT', 'DELIVERED', 'COMPLAINED'];

/**
 * The contacts among these that are snoozed now, and with a cap, how many marketing emails each was sent in its
 * window (emails of this project, counted from when each was accepted). With a cap, the contacts' rows are locked
 * first (in id order, so two batches never wait for each other in a circle): a concurrent send to the same contacts
 * waits until this transaction commits, then counts its emails too — the cap holds across any number of workers.
 */
export async function findMarketingHolds(
  tx: Executor,
  projectId: string,
  contactIds: string[],
  cap: { max: number; days: number } | null,
): Promise<{ snoozed: Set<string>; recent: Map<string, number> }> {
  const ids = sql`${`{${contactIds.join(',')}}`}::uuid[]`;
  const project = sql`c.project_id = ${projectId}::uuid AND c.id = ANY(${ids})`;
  if (!cap) {
    const rows = await tx.execute(sql`SELECT c.id FROM contacts c WHERE ${project} AND c.snoozed_until > now()`);
    return { snoozed: new Set(rowsOf<{ id: string }>(rows).map((r) => r.id)), recent: new Map() };
  }
  const locked = await tx.execute(sql`
    SELECT c.id, coalesce(c.snoozed_until > now(), false) AS snoozed FROM contacts c WHERE ${project}
    ORDER BY c.id FOR NO KEY UPDATE`);
  const snoozed = new Set(
    rowsOf<{ id: string; snoozed: boolean }>(locked)
      .filter((r) => r.snoozed)
      .map((r) => r.id),
  );
  const recent = new Map<string, number>();
  // Counted in a statement of its own: it sees what a transaction that held one of the locks committed meanwhile.
  const statuses = sql.join(
    CAPPED_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const counted = await tx.execute(sql`
    SELECT e.contact_id AS id, count(*)::int AS n FROM emails e
    WHERE e.contact_id = ANY(${ids}) AND e.created_at > now() - ${`${cap.days} days`}::interval
      AND e.project_id = ${projectId}::uuid AND e.marketing AND e.status IN (${statuses})
    GROUP BY e.contact_id`);
  for (const row of rowsOf<{ id: string; n: number }>(counted)) recent.set(row.id, Number(row.n));
  return { snoozed, recent };
}

/** A campaign's SUPPRESSED emails by their reason (SNOOZED, FREQUENCY_CAP, TOPIC…), in one pass. */
export async function countSuppressedCampaignEmailRows(
  db: Executor,
  projectId: string,
  campaignId: string,
): Promise<Record<string, number>> {
  const result = await db.execute(sql`SELECT coalesce(m.status_reason, 'SUPPRESSED') AS reason, count(*)::int AS n
    FROM emails m WHERE ${ofCampaign(projectId, campaignId)} AND m.status = 'SUPPRESSED' GROUP BY 1 ORDER BY 1`);
  return Object.fromEntries(rowsOf<{ reason: string; n: number }>(result).map((r) => [r.reason, Number(r.n)]));
}

/** The same counts per A/B test variant (by variant index), in one pass. */
export async function countVariantEmailRows(
  db: Executor,
  projectId: string,
  campaignId: string,
): Promise<Map<number, CampaignCounts>> {
  const result = await db.execute(sql`SELECT m.variant, ${countColumns()} FROM emails m
    WHERE ${ofCampaign(projectId, campaignId)} AND m.variant IS NOT NULL GROUP BY m.variant`);
  const rows = rowsOf<Record<string, number | string>>(result);
  return new Map(rows.map(({ variant, ...row }) => [Number(variant), numbers<CampaignCounts>(row)]));
}

/** A campaign's links by clicks (at most 500): every click, people's clicks, and the emails that clicked each. */
export async function countCampaignLinkClicks(db: Executor, projectId: string, campaignId: string) {
  const result = await db.execute(sql`
    SELECT l.url, sum(l.clicks)::int AS clicks, sum(l.human_clicks)::int AS "humanClicks", count(*)::int AS
      "uniqueClicks"
    FROM link_clicks l WHERE l.campaign_id = ${campaignId}::uuid AND l.project_id = ${projectId}::uuid
    GROUP BY l.url ORDER BY 2 DESC, 1 LIMIT 500`);
  return rowsOf<{ url: string; clicks: number; humanClicks: number; uniqueClicks: number }>(result).map((r) => ({
    url: r.url,
    clicks: Number(r.clicks),
    humanClicks: Number(r.humanClicks),
    uniqueClicks: Number(r.uniqueClicks),
  }));
}

// ---- Conditions other modules' queries embed ----

export interface EmailActivityCondition {
  projectId: string;
  /** The outer query's contact id (`contacts.id`). */
  contact: AnyColumn | SQL;
  activity: EmailActivity;
  /** People's opens and clicks only; the other activities have no machine side, so it changes nothing there. */
  human?: boolean | undefined;
  campaignId?: string | undefined;
  /** The activity happened at or after this time. */
  since?: SQL | undefined;
}

/** `EXISTS (…)`: the contact has an email of the project with the activity (of the campaign, since the time). */
export function emailActivityExistsSql(condition: EmailActivityCondition): SQL {
  const { projectId, contact, campaignId, since } = condition;
  const human = condition.human ? HUMAN_ACTIVITY_SQL[condition.activity] : undefined;
  const activity = human ?? ACTIVITY_SQL[condition.activity];
  const campaign = campaignId ? sql` AND m.source_type = 'CAMPAIGN' AND m.source_id = ${campaignId}::uuid` : sql``;
  const within = since ? sql` AND ${activity.at} >= ${since}` : sql``;
  const own = sql`m.project_id = ${projectId}::uuid AND m.contact_id = ${contact}`;
  return sql`EXISTS (SELECT 1 FROM emails m WHERE ${own} AND ${activity.match}${campaign}${within})`;
}

/** `EXISTS (…)`: an email of the campaign is still on its way (SCHEDULED, QUEUED, SENDING or DEFERRED). */
export function unsentCampaignEmailExistsSql(campaignId: string): SQL {
  const unsent = sql`m.source_type = 'CAMPAIGN' AND m.status IN ('SCHEDULED', 'QUEUED', 'SENDING', 'DEFERRED')`;
  return sql`EXISTS (SELECT 1 FROM emails m WHERE m.source_id = ${campaignId}::uuid AND ${unsent})`;
}

// ---- Reports ----

/**
 * Each activity of ACTIVITY_SQL counted on the UTC day it happened from `since` on, over the project's emails created
 * from `createdSince` on (test sends excluded), each email once per activity.
 */
export async function countActivitiesByDay(db: Executor, projectId: string, since: Date, createdSince: Date) {
  const kind = (m: EmailActivity) => sql`(${m}, CASE WHEN ${ACTIVITY_SQL[m].match} THEN ${ACTIVITY_SQL[m].at} END)`;
  const kinds = sql.join(EMAIL_ACTIVITIES.map(kind), sql`, `);
  const result = await db.execute(sql`
    SELECT to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.metric AS name, count(*)::int AS n
    FROM emails m CROSS JOIN LATERAL (VALUES ${kinds}) AS a(metric, at)
    WHERE m.project_id = ${projectId}::uuid AND m.created_at >= ${createdSince.toISOString()}::timestamptz
      AND m.source_type <> 'TEST' AND a.at >= ${since.toISOString()}::timestamptz
    GROUP BY 1, 2`);
  return rowsOf<{ day: string; name: EmailActivity; n: number | string }>(result);
}

/** The project's test sends sent since `since` (emails created since `createdSince`), which the stats leave out. */
export async function countTestSendsSince(db: Executor, projectId: string, since: Date, createdSince: Date) {
  const sent = ACTIVITY_SQL.sent;
  const result = await db.execute(sql`
    SELECT count(*)::int AS n FROM emails m
    WHERE m.project_id = ${projectId}::uuid AND m.created_at >= ${createdSince.toISOString()}::timestamptz
      AND m.source_type = 'TEST' AND ${sent.match} AND ${sent.at} >= ${since.toISOString()}::timestamptz`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/** An end of a reporting period: a day in the project's time zone (its midnight, `days` later), or an instant. */
export type PeriodBound = { date: string; days: number } | { instant: Date };

export type MetricsGrouping = 'day' | 'campaign' | 'domain' | 'provider' | 'transport';

function boundSql(bound: PeriodBound, timezone: string): SQL {
  return 'date' in bound
    ? sql`((${bound.date}::date + ${bound.days}::int)::timestamp AT TIME ZONE ${timezone})`
    : sql`${bound.instant.toISOString()}::timestamptz`;
}

type Grouping = { select: SQL; join: SQL; group: SQL; order: SQL };

const GROUPINGS: Record<MetricsGrouping, (timezone: string) => Grouping> = {
  day: (timezone) => ({
    select: sql`to_char(m.created_at AT TIME ZONE ${timezone}, 'YYYY-MM-DD') AS date`,
    join: sql``,
    group: sql`1`,
    order: sql`1`,
  }),
  campaign: () => ({
    select: sql`g.campaign_id AS "campaignId", c.name AS "campaignName"`,
    join: sql` CROSS JOIN LATERAL (SELECT CASE WHEN m.source_type = 'CAMPAIGN' THEN m.source_id END AS campaign_id) g
      LEFT JOIN campaigns c ON c.id = g.campaign_id`,
    group: sql`1, 2`,
    order: sql`sent DESC, 1 NULLS LAST`,
  }),
  domain: () => ({
    select: sql`lower(split_part(m.to_email, '@', 2)) AS domain`,
    join: sql``,
    group: sql`1`,
    order: sql`sent DESC, 1`,
  }),
  // Emails never handed over (suppressed, cancelled, failed or still waiting) have no provider: one 'unknown' group.
  provider: () => ({
    select: sql`coalesce(m.provider, 'unknown') AS provider`,
    join: sql``,
    group: sql`1`,
    order: sql`sent DESC, 1`,
  }),
  // The transport that carried each email (the fallback after a failover); null for emails never handed over.
  transport: () => ({
    select: sql`m.transport_id AS "transportId",
      CASE WHEN m.transport_id = 'default' THEN 'default' ELSE min(t.name) END AS "transportName"`,
    join: sql` LEFT JOIN transports t ON t.id::text = m.transport_id`,
    group: sql`1`,
    order: sql`sent DESC, 1 NULLS LAST`,
  }),
};

/**
 * The campaign figures of the project's emails created in a period (test sends excluded), in total (with the period's
 * ends as ISO instants) and grouped, at most `limit` groups; `start` may be a number of days before the end.
 */
export async function countEmailMetrics(
  db: Executor,
  opts: {
    projectId: string;
    timezone: string;
    groupBy: MetricsGrouping;
    limit: number;
    start: PeriodBound | { daysBeforeEnd: number };
    end: PeriodBound;
  },
) {
  const { projectId, timezone, start: from } = opts;
  const end = boundSql(opts.end, timezone);
  const start =
    'daysBeforeEnd' in from
      ? sql`(${end} - interval '${sql.raw(String(from.daysBeforeEnd))} days')`
      : boundSql(from, timezone);
  const created = sql`m.created_at >= ${start} AND m.created_at < ${end}`;
  const where = sql`m.project_id = ${projectId}::uuid AND m.source_type <> 'TEST' AND ${created}`;
  const g = GROUPINGS[opts.groupBy](timezone);
  const iso = (at: SQL) => sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const totals = rowsOf<Record<string, string | number>>(
    await db.execute(sql`
    SELECT ${iso(start)} AS "from", ${iso(end)} AS "to",
      ${countColumns()} FROM emails m WHERE ${where}`),
  )[0]!;
  const grouped = sql`GROUP BY ${g.group} ORDER BY ${g.order} LIMIT ${opts.limit}`;
  const groups = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`
    SELECT ${g.select}, ${countColumns()} FROM emails m${g.join} WHERE ${where} ${grouped}`),
  );
  return { totals, groups };
}

/**
 * Of these campaigns, those with emails put back in the queue by the sending engine to wait for a warm-up's next day
 * (HELD_WARMUP) or a provider throttle's turn (HELD_THROTTLE), with which of the two they wait for.
 */
export async function findHeldCampaignEmailRows(
  db: Executor,
  campaignIds: string[],
): Promise<{ campaignId: string; warmup: boolean; throttle: boolean }[]> {
  if (campaignIds.length === 0) return [];
  const result = await db.execute(sql`
    SELECT m.source_id AS "campaignId", bool_or(m.status_reason = 'HELD_WARMUP') AS warmup,
      bool_or(m.status_reason = 'HELD_THROTTLE') AS throttle
    FROM emails m
    WHERE m.queued AND m.status = 'QUEUED' AND m.status_reason IN ('HELD_WARMUP', 'HELD_THROTTLE')
      AND m.source_type = 'CAMPAIGN' AND m.source_id IN (${idList(campaignIds)})
    GROUP BY m.source_id`);
  return rowsOf<{ campaignId: string; warmup: boolean; throttle: boolean }>(result);
}

// ---- Opens, clicks and unsubscribes counted on the email row ----

/** What an open or click needs of its email: the counters, and the fields of its webhook event. */
const counted = {
  id: emails.id,
  projectId: emails.projectId,
  contactId: emails.contactId,
  toEmail: emails.toEmail,
  toList: emails.toList,
  fromEmail: emails.fromEmail,
  subject: emails.subject,
  sourceType: emails.sourceType,
  sourceId: emails.sourceId,
  messageId: emails.messageId,
  tags: emails.tags,
  transportId: emails.transportId,
  provider: emails.provider,
  opens: emails.opens,
  clicks: emails.clicks,
};

export type CountedEmail = { [K in keyof typeof counted]: (typeof emails.$inferSelect)[K] };

/** The email's send time and first engagements, locked for the counting update that follows; null: not ours. */
export async function lockEmailEngagement(db: Executor, id: string) {
  const [row] = await db
    .select({
      sentAt: emails.sentAt,
      openedAt: emails.openedAt,
      clickedAt: emails.clickedAt,
      humanOpenedAt: emails.humanOpenedAt,
      humanClickedAt: emails.humanClickedAt,
    })
    .from(emails)
    .where(eq(emails.id, id))
    .for('update');
  return row ?? null;
}

// Side effect: counts an open (the first one stamps openedAt, the first person's humanOpenedAt).
export async function countEmailOpen(db: Executor, id: string, human: boolean): Promise<CountedEmail | null> {
  const [row] = await db
    .update(emails)
    .set({
      opens: sql`${emails.opens} + 1`,
      openedAt: sql`coalesce(${emails.openedAt}, now())`,
      ...(human ? { humanOpenedAt: sql`coalesce(${emails.humanOpenedAt}, now())` } : {}),
    })
    .where(eq(emails.id, id))
    .returning(counted);
  return row ?? null;
}

// Side effect: counts a click (the first one stamps clickedAt); a click implies the message was opened, and a
// person's click that a person opened it.
export async function countEmailClick(db: Executor, id: string, human: boolean): Promise<CountedEmail | null> {
  const byPerson = {
    humanClickedAt: sql`coalesce(${emails.humanClickedAt}, now())`,
    humanOpenedAt: sql`coalesce(${emails.humanOpenedAt}, now())`,
  };
  const [row] = await db
    .update(emails)
    .set({
      clicks: sql`${emails.clicks} + 1`,
      clickedAt: sql`coalesce(${emails.clickedAt}, now())`,
      openedAt: sql`coalesce(${emails.openedAt}, now())`,
      ...(human ? byPerson : {}),
    })
    .where(eq(emails.id, id))
    .returning(counted);
  return row ?? null;
}

/** When the email was handed over, or null when it is not ours. */
export async function findEmailSentAt(db: Executor, id: string): Promise<{ sentAt: Date | null } | null> {
  const [row] = await db.select({ sentAt: emails.sentAt }).from(emails).where(eq(emails.id, id));
  return row ?? null;
}

// Side effect: counts a click of one link of a campaign email (the campaign's link report; the URL cut at 2,000).
export async function countLinkClick(
  db: Executor,
  row: { emailId: string; projectId: string; campaignId: string; url: string; human: boolean },
): Promise<void> {
  const human = row.human ? 1 : 0;
  const url = row.url.slice(0, 2000);
  const { emailId, projectId, campaignId } = row;
  await db
    .insert(linkClicks)
    .values({ emailId, projectId, campaignId, url, clicks: 1, humanClicks: human })
    .onConflictDoUpdate({
      target: [linkClicks.emailId, linkClicks.url],
      set: { clicks: sql`${linkClicks.clicks} + 1`, humanClicks: sql`${linkClicks.humanClicks} + ${human}` },
    });
}

/** Notes that the recipient unsubscribed through this email; only the first time. */
/** Stamps the email's first unsubscribe; the email (its id and project) when this was the first. */
export async function markEmailUnsubscribed(
  db: Executor,
  id: string,
): Promise<{ id: string; projectId: string } | null> {
  const [row] = await db
    .update(emails)
    .set({ unsubscribedAt: sql`now()` })
    .where(and(eq(emails.id, id), isNull(emails.unsubscribedAt)))
    .returning({ id: emails.id, projectId: emails.projectId });
  return row ?? null;
}

/**
 * A tracked email's body as stored, or what renders it again (campaign mail), or once retention dropped its content the
 * link targets it kept: where click links are looked up by index.
 */
export async function findTrackedBody(db: Executor, id: string) {
  const [row] = await db
    .select({
      id: emails.id,
      projectId: emails.projectId,
      contactId: emails.contactId,
      sourceType: emails.sourceType,
      sourceId: emails.sourceId,
      marketing: emails.marketing,
      html: emails.html,
      mimeId: emails.mimeId,
      contentId: emails.contentId,
      variables: emails.variables,
      contentDroppedAt: emails.contentDroppedAt,
      linkTargets: emails.linkTargets,
    })
    .from(emails)
    .where(and(eq(emails.id, id), eq(emails.tracking, true)));
  return row ?? null;
}

// ---- Retention of finished emails' content ----

/** The statuses an email ends in: nothing will read its content to send it again. */
const FINISHED: EmailStatus[] = ['SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED', 'CANCELLED'];

/** The emails whose content is past its retention: finished, created before the cut-off, content still kept. */
const expired = (before: Date) =>
  and(isNull(emails.contentDroppedAt), lt(emails.createdAt, before), inArray(emails.status, FINISHED));

/** A tracked email that went out: its click links are in someone's mailbox. */
const clickable = sql<boolean>`(${emails.tracking} AND ${emails.sentAt} IS NOT NULL)`;

/** What is read of a column for clickable emails only (the others' bodies are not needed to drop them). */
const ifClickable = (column: typeof emails.html | typeof emails.mimeId | typeof emails.variables) =>
  sql`CASE WHEN ${clickable} THEN ${column} END`.mapWith(column);

/**
 * Up to `limit` emails whose content is past its retention (created before `before`), oldest first, with what finding
 * their links needs: the body, MIME and variables of clickable ones only.
 */
export async function findExpiredContentEmails(db: Executor, before: Date, limit: number) {
  return db
    .select({
      id: emails.id,
      projectId: emails.projectId,
      contactId: emails.contactId,
      sourceType: emails.sourceType,
      sourceId: emails.sourceId,
      marketing: emails.marketing,
      contentId: emails.contentId,
      clickable,
      html: ifClickable(emails.html) as SQL<string | null>,
      mimeId: ifClickable(emails.mimeId) as SQL<string | null>,
      variables: ifClickable(emails.variables) as SQL<Record<string, unknown> | null>,
    })
    .from(emails)
    .where(expired(before))
    .orderBy(asc(emails.createdAt))
    .limit(limit);
}

/** Those of these emails whose content is still past its retention, locked (skipping those others hold). */
export async function lockExpiredContentEmails(db: Executor, ids: string[], before: Date) {
  return db
    .select({ id: emails.id, setId: emails.attachmentSetId, mimeId: emails.mimeId })
    .from(emails)
    .where(and(inArray(emails.id, ids), expired(before)))
    .for('update', { skipLocked: true });
}

/**
 * Drops these emails' bodies, variables, attachment set and MIME (content_dropped_at set), keeping for each the link
 * targets given by its id (none for an email left out).
 */
export async function dropEmailContent(
  db: Executor,
  ids: string[],
  targets: Map<string, Array<string | null>>,
): Promise<void> {
  // Each email's targets from one JSON object by id: one statement for the batch, null for an email without any.
  const kept = sql`(${JSON.stringify(Object.fromEntries(targets))}::jsonb -> ${emails.id}::text)`;
  await db
    .update(emails)
    .set({
      html: null,
      text: null,
      variables: null,
      attachmentSetId: null,
      mimeId: null,
      linkTargets: kept,
      contentDroppedAt: new Date(),
    })
    .where(inArray(emails.id, ids));
}

/**
 * Side effect: deletes the attachment sets and MIME these emails pointed at before their content was dropped, when no
 * email points at them any more (stored once per send and shared by its emails, they go with the last of them).
 */
export async function deleteUnsharedContent(
  db: Executor,
  dropped: { setId: string | null; mimeId: string | null }[],
): Promise<void> {
  const sets = [...new Set(dropped.flatMap((r) => (r.setId ? [r.setId] : [])))];
  if (sets.length > 0) {
    await db
      .delete(emailAttachments)
      .where(
        and(
          inArray(emailAttachments.setId, sets),
          sql`NOT EXISTS (SELECT 1 FROM ${emails} WHERE ${emails.attachmentSetId} = ${emailAttachments.setId})`,
        ),
      );
  }
  const mimes = [...new Set(dropped.flatMap((r) => (r.mimeId ? [r.mimeId] : [])))];
  if (mimes.length > 0) {
    const unused = sql`NOT EXISTS (SELECT 1 FROM ${emails} WHERE ${emails.mimeId} = ${emailMime.id})`;
    await db.delete(emailMime).where(and(inArray(emailMime.id, mimes), unused));
  }
}

// ---- Erasure of deleted contacts ----

/** Why a contact's unsent emails were cancelled. */
const CONTACT_DELETED = 'CONTACT_DELETED';

/** The addresses as one regular expression (PostgreSQL's, used case-insensitively), for the texts that quote them. */
function addressesPattern(addresses: string[]): string {
  return addresses.map((address) => address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** An array as one parameter (a PostgreSQL array literal, each element quoted), however many values it holds. */
const arrayOf = (values: string[], type: 'text' | 'jsonb'): SQL =>
  sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::${sql.raw(type)}[]`;

/** A jsonb list of `{email, name}` with the addresses' entries replaced by the erased address (no name). */
function erasedList(column: AnyColumn, addresses: SQL): SQL {
  return sql`CASE WHEN ${column} IS NULL THEN NULL ELSE coalesce((SELECT jsonb_agg(CASE WHEN lower(x->>'email') =
    ANY(${addresses})
    THEN jsonb_build_object('email', ${ERASED_ADDRESS}::text) ELSE x END ORDER BY i) FROM
      jsonb_array_elements(${column}) WITH ORDINALITY AS t(x, i)), '[]'::jsonb) END`;
}

/** The envelope (a jsonb list of addresses) with the addresses replaced by the erased address. */
function erasedEnvelope(addresses: SQL): SQL {
  return sql`CASE WHEN ${emails.rcpt} IS NULL THEN NULL ELSE coalesce((SELECT jsonb_agg(CASE WHEN lower(x #>> '{}') =
    ANY(${addresses})
    THEN to_jsonb(${ERASED_ADDRESS}::text) ELSE x END ORDER BY i) FROM jsonb_array_elements(${emails.rcpt}) WITH
      ORDINALITY AS t(x, i)), '[]'::jsonb) END`;
}

/** The contacts' own emails in the project. */
const contactsEmail = (projectId: string, contactIds: string[]) =>
  and(eq(emails.projectId, projectId), inArray(emails.contactId, contactIds));

/** The contacts' own emails that had not gone out become CANCELLED (CONTACT_DELETED); answers their ids. */
export async function cancelContactEmails(db: Executor, projectId: string, contactIds: string[]): Promise<string[]> {
  const rows = await db
    .update(emails)
    .set({
      status: target('cancel', 'CANCELLED'),
      statusReason: CONTACT_DELETED,
      nextAttemptAt: null,
      updatedAt: sql`now()`,
    })
    .where(and(contactsEmail(projectId, contactIds), inArray(emails.status, fromOf('cancel'))))
    .returning({ id: emails.id });
  return rows.map((r) => r.id);
}

/** The attachment sets and MIME of the contacts' own finished emails. */
export async function findContactEmailContent(db: Executor, projectId: string, contactIds: string[]) {
  const withContent = sql`(${emails.attachmentSetId} IS NOT NULL OR ${emails.mimeId} IS NOT NULL)`;
  return db
    .select({ setId: emails.attachmentSetId, mimeId: emails.mimeId })
    .from(emails)
    .where(and(contactsEmail(projectId, contactIds), inArray(emails.status, [...FINAL_STATUSES]), withContent));
}

/**
 * Side effect: removes the addresses (lower-cased) of deleted contacts from the project's emails in one statement, and
 * answers the rows it changed. In their own emails and those sent to an address, the recipient becomes ERASED_ADDRESS
 * without a name; their own finished ones lose bodies, variables, headers, attachments, MIME and kept link targets.
 * Elsewhere the addresses are replaced in To, Cc, Bcc and the envelope, and in a subject, SMTP reply or status reason.
 */
export async function eraseEmailAddresses(
  db: Executor,
  projectId: string,
  contactIds: string[],
  lowered: string[],
): Promise<EmailRow[]> {
  const addresses = arrayOf(lowered, 'text');
  const mine = sql`(${inArray(emails.contactId, contactIds)})`;
  const finished = sql`(${mine} AND ${emails.status} IN (${sql.join(
    FINAL_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )}))`;
  const named = sql`(${mine} OR lower(${emails.toEmail}) = ANY(${addresses}))`;
  const now = sql`now()`;
  const keep = <T extends AnyColumn>(column: T, when: SQL, value: SQL = sql`NULL`) =>
    sql`CASE WHEN ${when} THEN ${value} ELSE ${column} END`;
  const pattern = addressesPattern(lowered);
  const listed = arrayOf(
    lowered.map((address) => JSON.stringify([{ email: address }])),
    'jsonb',
  );
  const unquoted = (column: AnyColumn) => sql`regexp_replace(${column}, ${pattern}, ${ERASED_ADDRESS}::text, 'gi')`;
  // The expression of emails_recipients_idx, so the planner uses it (one index probe per address).
  const recipients = sql`(coalesce(to_list, '[]'::jsonb) || coalesce(cc, '[]'::jsonb) || coalesce(bcc, '[]'::jsonb))`;
  return db
    .update(emails)
    .set({
      toEmail: keep(emails.toEmail, named, sql`${ERASED_ADDRESS}::text`),
      toName: keep(emails.toName, named),
      toList: erasedList(emails.toList, addresses),
      cc: erasedList(emails.cc, addresses),
      bcc: erasedList(emails.bcc, addresses),
      rcpt: erasedEnvelope(addresses),
      subject: unquoted(emails.subject),
      lastError: unquoted(emails.lastError),
      statusReason: unquoted(emails.statusReason),
      html: keep(emails.html, finished),
      text: keep(emails.text, finished),
      variables: keep(emails.variables, finished),
      headers: keep(emails.headers, finished),
      attachmentSetId: keep(emails.attachmentSetId, finished),
      mimeId: keep(emails.mimeId, finished),
      linkTargets: keep(emails.linkTargets, finished),
      contentDroppedAt: keep(emails.contentDroppedAt, sql`${finished} AND ${emails.contentDroppedAt} IS NULL`, now),
    })
    .where(
      and(
        eq(emails.projectId, projectId),
        or(
          inArray(emails.contactId, contactIds),
          sql`${emails.toList} IS NOT NULL AND ${recipients} @> ANY(${listed})`,
        ),
      ),
    )
    .returning();
}
