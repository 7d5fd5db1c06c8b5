import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { consentLedger, contacts, type JsonObject } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { addressSearchForms } from '../../lib/email-address.ts';
import { newId } from '../../lib/ids.ts';
import { rowsOf } from '../../db/rows.ts';
import { eventsFrom } from '../events/index.ts';
import { listPage } from '../../db/list-page.ts';

export type ContactRow = typeof contacts.$inferSelect;

/** One contact to create or update, keyed by its (already normalised) email. */
export interface UpsertRow {
  email: string;
  /** The id a new contact gets (a caller that renders before writing knows it then); unused when it exists. */
  id?: string | undefined;
  /** Applied to new and existing contacts; omitted = existing contacts keep theirs. */
  subscribed?: boolean | undefined;
  /** `subscribed` of a new contact when `subscribed` is not given. */
  defaultSubscribed: boolean;
  /** Merged key by key into `data`; a null value deletes the key. */
  patch?: JsonObject | undefined;
  /** The contact's language (canonical BCP 47), null to clear it; omitted = existing contacts keep theirs. */
  locale?: string | null | undefined;
  /** The language of a new contact, or of an existing one without any, when `locale` is not given. */
  fallbackLocale?: string | undefined;
  /** An event recorded for the contact in the same statement (the /v1/track hot path). */
  event?: { name: string; data: JsonObject } | undefined;
}

export interface UpsertedContact {
  contact: ContactRow;
  inserted: boolean;
  /** Id of the row's `event`, when it had one. */
  eventId: string | null;
  /** The statement's time at the columns' precision: created_at of the events it recorded. */
  at: Date;
  /** An existing contact whose subscription, data or locale this call changed. */
  changed: boolean;
  /** Its subscription flipped. */
  flipped: boolean;
}

interface RawContact {
  id: string;
  project_id: string;
  email: string;
  subscribed: boolean;
  data: unknown;
  locale: string | null;
  confirmation_status: 'PENDING' | 'CONFIRMED' | null;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  last_human_open_at: string | null;
  last_human_click_at: string | null;
  engagement_hours: unknown;
  first_marketing_at: string | null;
  last_marketing_at: string | null;
  marketing_received: number | string;
  snoozed_until: string | null;
  created_at: string;
  updated_at: string;
}

// Both drivers hand back timestamps (and maybe jsonb) as text from raw SQL; the columns' mappers read them.
const toDate = (value: string): Date => contacts.createdAt.mapFromDriverValue(value) as Date;
const toDateOrNull = (value: string | null): Date | null => (value === null ? null : toDate(value));

function toContactRow(raw: RawContact): ContactRow {
  return {
    id: raw.id,
    projectId: raw.project_id,
    email: raw.email,
    subscribed: raw.subscribed,
    data: contacts.data.mapFromDriverValue(raw.data) as JsonObject,
    locale: raw.locale,
    confirmationStatus: raw.confirmation_status,
    confirmationSentAt: toDateOrNull(raw.confirmation_sent_at),
    confirmedAt: toDateOrNull(raw.confirmed_at),
    lastHumanOpenAt: toDateOrNull(raw.last_human_open_at),
    lastHumanClickAt: toDateOrNull(raw.last_human_click_at),
    engagementHours:
      raw.engagement_hours === null
        ? null
        : (contacts.engagementHours.mapFromDriverValue(raw.engagement_hours) as number[]),
    firstMarketingAt: toDateOrNull(raw.first_marketing_at),
    lastMarketingAt: toDateOrNull(raw.last_marketing_at),
    marketingReceived: Number(raw.marketing_received),
    snoozedUntil: toDateOrNull(raw.snoozed_until),
    createdAt: toDate(raw.created_at),
    updatedAt: toDate(raw.updated_at),
  };
}

/**
 * The columns of a contact row aliased `alias` that the upsert carries through unchanged (double opt-in state,
 * engagement figures, pause), for the statements that list columns one by one.
 */
const CARRIED_COLUMNS = (alias: string): SQL =>
  sql.raw(
    [
      ...['confirmation_status', 'confirmation_sent_at', 'confirmed_at'],
      ...['last_human_open_at', 'last_human_click_at', 'engagement_hours'],
      ...['first_marketing_at', 'last_marketing_at', 'marketing_received'],
      'snoozed_until',
    ]
      .map((column) => `${alias}.${column}`)
      .join(', '),
  );

/** `base` with `patch` merged key by key; keys whose patch value is JSON null are removed. */
function mergedData(base: SQL, patch: SQL): SQL {
  return sql`CASE WHEN ${patch} IS NULL THEN ${base} ELSE (${base} || ${patch}) - ARRAY(SELECT e.key FROM
    jsonb_each(${patch}) AS e WHERE e.value = 'null'::jsonb) END`;
}

/**
 * The `contact.subscribed` / `contact.unsubscribed` event of every row of `source` (columns flip_id,
 * contact_id, subscribed, flipped) whose flag flipped: the one place those events are written.
 */
function flipEvents(projectId: string, source: SQL): SQL {
  return eventsFrom(sql`SELECT f.flip_id, ${projectId}::uuid, f.contact_id,
      CASE WHEN f.subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END, '{}'::jsonb
    FROM ${source} f WHERE f.flipped`);
}

/**
 * Inserts or updates every row in one statement, with flip events and the rows' events. Existing rows are locked first,
 * so the flip is judged against the value this statement replaces.
 */
async function upsertOnce(db: Executor, projectId: string, rows: UpsertRow[]): Promise<UpsertedContact[]> {
  // A flip sorts before the row's own event: its id is made first, and both share the statement's time.
  const inputs = rows.map((r) => ({
    id: r.id ?? newId(),
    email: r.email,
    subscribed: r.subscribed,
    default_subscribed: r.defaultSubscribed,
    patch: r.patch && Object.keys(r.patch).length > 0 ? r.patch : undefined,
    set_locale: r.locale !== undefined,
    locale: r.locale ?? null,
    fallback_locale: r.fallbackLocale,
    flip_id: newId(),
    event_id: r.event ? newId() : undefined,
    event_name: r.event?.name,
    event_data: r.event?.data,
  }));
  const eventIds = new Map(inputs.map((i) => [i.email, i.event_id ?? null]));
  const input = JSON.stringify(inputs);
  const result = await db.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(id uuid, email text, subscribed boolean,
        default_subscribed boolean, patch jsonb, set_locale boolean, locale text, fallback_locale text, flip_id uuid,
        event_id uuid, event_name text, event_data jsonb)
    ), old AS (
      SELECT c.id, c.email, c.created_at, c.updated_at, ${CARRIED_COLUMNS('c')}, c.subscribed AS old_subscribed,
        c.data AS old_data,
        COALESCE(i.subscribed, c.subscribed) AS subscribed, ${mergedData(sql`c.data`, sql`i.patch`)} AS data,
        c.locale AS old_locale,
        CASE WHEN i.set_locale THEN i.locale ELSE COALESCE(c.locale, i.fallback_locale) END AS locale
      FROM contacts c JOIN input i ON i.email = c.email
      WHERE c.project_id = ${projectId}
      FOR NO KEY UPDATE OF c
    ), upd AS (
      UPDATE contacts c SET subscribed = o.subscribed, data = o.data, locale = o.locale, updated_at = now()
      FROM old o
      WHERE c.id = o.id AND (o.subscribed <> o.old_subscribed OR o.data <> o.old_data
        OR o.locale IS DISTINCT FROM o.old_locale)
      RETURNING c.id, c.updated_at
    ), ins AS (
      INSERT INTO contacts (id, project_id, email, subscribed, data, locale)
      SELECT i.id, ${projectId}, i.email, COALESCE(i.subscribed, i.default_subscribed),
        ${mergedData(sql`'{}'::jsonb`, sql`i.patch`)},
        CASE WHEN i.set_locale THEN i.locale ELSE i.fallback_locale END
      FROM input i WHERE NOT EXISTS (SELECT 1 FROM old o WHERE o.email = i.email)
      ON CONFLICT (project_id, email) DO NOTHING
      RETURNING id, project_id, email, subscribed, data, locale, created_at, updated_at,
        ${CARRIED_COLUMNS('contacts')}
    ), res AS (
      SELECT o.id, ${projectId}::uuid AS project_id, o.email, o.subscribed, o.data, o.locale, o.created_at,
        ${CARRIED_COLUMNS('o')},
        COALESCE(u.updated_at, o.updated_at) AS updated_at, false AS inserted, o.subscribed <> o.old_subscribed AS
          flipped,
        u.id IS NOT NULL AS changed
      FROM old o LEFT JOIN upd u ON u.id = o.id
      UNION ALL
      SELECT n.id, n.project_id, n.email, n.subscribed, n.data, n.locale, n.created_at, ${CARRIED_COLUMNS('n')},
        n.updated_at, true, false, false FROM ins n
    ), flips AS (
      ${flipEvents(
        projectId,
        sql`(SELECT i.flip_id, r.id AS contact_id, r.subscribed, r.flipped FROM res r JOIN input
        i ON i.email = r.email)`,
      )}
    ), tracked AS (
      ${eventsFrom(sql`SELECT i.event_id, ${projectId}, r.id, i.event_name, COALESCE(i.event_data, '{}'::jsonb)
      FROM res r JOIN input i ON i.email = r.email WHERE i.event_name IS NOT NULL`)}
    )
    SELECT res.*, now()::timestamptz(3) AS at FROM res`);
  return rowsOf<RawContact & { inserted: boolean; flipped: boolean; changed: boolean; at: string }>(result).map(
    (raw) => ({
      contact: toContactRow(raw),
      inserted: raw.inserted,
      eventId: eventIds.get(raw.email) ?? null,
      at: toDate(raw.at),
      changed: raw.changed,
      flipped: raw.flipped,
    }),
  );
}

/**
 * Creates or updates contacts by email, race-free: a row that a concurrent statement inserted after
 * this one's snapshot is simply retried (it then exists and is updated). Results follow `rows`' order.
 */
export async function upsertContactRows(
  db: Executor,
  projectId: string,
  rows: UpsertRow[],
): Promise<UpsertedContact[]> {
  const byEmail = new Map<string, UpsertedContact>();
  let pending = rows;
  if (new Set(rows.map((r) => r.email)).size !== rows.length)
    throw new Error('upsertContactRows: duplicate emails in one call');
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
    for (const done of await upsertOnce(db, projectId, pending)) byEmail.set(done.contact.email, done);
    pending = pending.filter((r) => !byEmail.has(r.email));
  }
  if (pending.length > 0) throw new AppError('CONFLICT', 'The contact was changed concurrently; retry the request');
  return rows.map((r) => byEmail.get(r.email)!);
}

export interface ContactPatch {
  email?: string | undefined;
  subscribed?: boolean | undefined;
  data?: JsonObject | undefined;
  /** The contact's language (canonical BCP 47), null to clear it; omitted = kept. */
  locale?: string | null | undefined;
}

/** Updates one contact (locked first) and records a flip event when `subscribed` changed. */
export async function updateContactRow(
  db: Executor,
  projectId: string,
  id: string,
  patch: ContactPatch,
): Promise<{ contact: ContactRow; changed: boolean; flipped: boolean } | null> {
  const data = patch.data && Object.keys(patch.data).length > 0 ? JSON.stringify(patch.data) : null;
  const changed = sql`(o.email <> o.old_email OR o.subscribed <> o.old_subscribed OR o.data <> o.old_data
    OR o.locale IS DISTINCT FROM o.old_locale)`;
  const result = await db.execute(sql`
    WITH old AS (
      SELECT c.id, c.email AS old_email, COALESCE(${patch.email ?? null}::text, c.email) AS email,
        c.subscribed AS old_subscribed, COALESCE(${patch.subscribed ?? null}::boolean, c.subscribed) AS subscribed,
        c.data AS old_data, ${mergedData(sql`c.data`, sql`${data}::jsonb`)} AS data, c.locale AS old_locale,
        CASE WHEN ${patch.locale !== undefined}::boolean THEN ${patch.locale ?? null}::text ELSE c.locale END AS locale
      FROM contacts c WHERE c.id = ${id} AND c.project_id = ${projectId}
      FOR UPDATE
    ), upd AS (
      UPDATE contacts c SET email = o.email, subscribed = o.subscribed, data = o.data, locale = o.locale,
        updated_at = CASE WHEN ${changed} THEN now() ELSE c.updated_at END
      FROM old o WHERE c.id = o.id
      RETURNING c.*, o.subscribed <> o.old_subscribed AS flipped, ${changed} AS changed
    ), flips AS (
      ${flipEvents(
        projectId,
        sql`(SELECT ${newId()}::uuid AS flip_id, id AS contact_id, subscribed, flipped FROM
        upd)`,
      )}
    )
    SELECT * FROM upd`);
  const [raw] = rowsOf<RawContact & { flipped: boolean; changed: boolean }>(result);
  return raw ? { contact: toContactRow(raw), changed: raw.changed, flipped: raw.flipped } : null;
}

/** The project's contacts with these (normalised) emails, by email; a read outside any write. */
export async function findContactsByEmails(
  db: Executor,
  projectId: string,
  emails: string[],
): Promise<Map<string, ContactRow>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.projectId, projectId), inArray(contacts.email, emails)));
  return new Map(rows.map((row) => [row.email, row]));
}

/** The addresses of the project's contacts with these ids (deleted ones are missing from the map). */
export async function findContactEmails(db: Executor, projectId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: contacts.id, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.projectId, projectId), inArray(contacts.id, ids)));
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function findContact(db: Executor, projectId: string, id: string): Promise<ContactRow | null> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.projectId, projectId)));
  return row ?? null;
}

/**
 * Where a contact stands: subscribed; unsubscribed (subscribed once, by the consent ledger, then left); or never
 * subscribed (a recipient of transactional mail, a contact added unsubscribed: not an opt-out).
 */
export const SUBSCRIPTION_STATES = ['subscribed', 'unsubscribed', 'never_subscribed'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export interface ContactFilters {
  subscribed?: boolean | undefined;
  subscription?: SubscriptionState | undefined;
  /** Lower-cased substring of the email. */
  search?: string | undefined;
  /** Normalised exact email. */
  email?: string | undefined;
}

/** Whether the consent ledger holds a subscription of the contact: it subscribed once, whatever it is now. */
const everSubscribed = sql`EXISTS (SELECT 1 FROM consent_ledger l
  WHERE l.contact_id = ${contacts.id} AND l.action = 'subscribed')`;

function subscriptionWhere(state: SubscriptionState): SQL {
  if (state === 'subscribed') return eq(contacts.subscribed, true);
  return and(eq(contacts.subscribed, false), state === 'unsubscribed' ? everSubscribed : sql`NOT ${everSubscribed}`)!;
}

/** Of these contacts, those the consent ledger shows subscribed once. */
export async function everSubscribedAmong(db: Executor, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: consentLedger.contactId })
    .from(consentLedger)
    .where(
      and(
        eq(consentLedger.projectId, projectId),
        inArray(consentLedger.contactId, ids),
        eq(consentLedger.action, 'subscribed'),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

export async function listContacts(
  db: Executor,
  projectId: string,
  opts: ContactFilters & { limit: number; cursor?: string | undefined },
) {
  const where = and(
    eq(contacts.projectId, projectId),
    opts.subscribed === undefined ? undefined : eq(contacts.subscribed, opts.subscribed),
    opts.subscription === undefined ? undefined : subscriptionWhere(opts.subscription),
    opts.email === undefined ? undefined : eq(contacts.email, opts.email),
    // The text as typed, or with an internationalised domain in the punycode the address is stored in.
    opts.search
      ? or(...addressSearchForms(opts.search).map((form) => sql`strpos(${contacts.email}, ${form}) > 0`))
      : undefined,
  );
  return listPage(db, contacts, where, opts);
}

/**
 * Marks the contact PENDING and its confirmation email as sent now, unless one was sent in the last `resendAfter`
 * seconds (a guarded update: of two concurrent signups only one sends). The time when this call may send, or null.
 */
export async function claimConfirmationSend(
  db: Executor,
  projectId: string,
  id: string,
  resendAfterSeconds: number,
): Promise<Date | null> {
  const [row] = await db
    .update(contacts)
    .set({ confirmationStatus: 'PENDING', confirmationSentAt: sql`now()`, confirmedAt: null })
    .where(
      and(
        eq(contacts.id, id),
        eq(contacts.projectId, projectId),
        sql`(${contacts.confirmationStatus} IS DISTINCT FROM 'PENDING' OR ${contacts.confirmationSentAt} IS NULL
          OR ${contacts.confirmationSentAt} < now() - make_interval(secs => ${resendAfterSeconds}))`,
      ),
    )
    .returning({ sentAt: contacts.confirmationSentAt });
  return row?.sentAt ?? null;
}

/** Marks the contact CONFIRMED; false when it already was (nothing to record again). */
export async function markConfirmed(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(contacts)
    .set({ confirmationStatus: 'CONFIRMED', confirmedAt: sql`now()` })
    .where(
      and(
        eq(contacts.id, id),
        eq(contacts.projectId, projectId),
        sql`${contacts.confirmationStatus} IS DISTINCT FROM 'CONFIRMED'`,
      ),
    )
    .returning({ id: contacts.id });
  return rows.length > 0;
}

/** Marks the contact changed (updated_at) for a change kept in another module's table (topic choices). */
export async function touchContactRow(db: Executor, projectId: string, id: string): Promise<ContactRow | null> {
  const [row] = await db
    .update(contacts)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(contacts.id, id), eq(contacts.projectId, projectId)))
    .returning();
  return row ?? null;
}

/**
 * Sets or clears the contact's snooze (locked first); `changed` when the stored value moved. Null for an unknown id.
 */
export async function setSnoozeRow(
  db: Executor,
  projectId: string,
  id: string,
  until: Date | null,
): Promise<{ contact: ContactRow; changed: boolean; before: Date | null } | null> {
  const [old] = await db
    .select({ snoozedUntil: contacts.snoozedUntil })
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.projectId, projectId)))
    .for('no key update');
  if (!old) return null;
  const before = old.snoozedUntil;
  const changed = (before?.getTime() ?? null) !== (until?.getTime() ?? null);
  const [row] = await db
    .update(contacts)
    .set(changed ? { snoozedUntil: until, updatedAt: sql`now()` } : { snoozedUntil: until })
    .where(and(eq(contacts.id, id), eq(contacts.projectId, projectId)))
    .returning();
  return { contact: row!, changed, before };
}

/** Deletes contacts; their events go with them (foreign key cascade). Returns what they were. */
export async function deleteContacts(db: Executor, projectId: string, ids: string[]): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  return db
    .delete(contacts)
    .where(and(eq(contacts.projectId, projectId), inArray(contacts.id, ids)))
    .returning();
}

// Side effect: sets `subscribed` and/or merges `data` into many contacts by id (locked first), recording a flip
// event for each whose subscription changed. Returns the contacts it changed (unchanged and unknown ids are absent).
export async function patchContactRows(
  db: Executor,
  projectId: string,
  ids: string[],
  patch: { subscribed?: boolean | undefined; data?: JsonObject | undefined },
): Promise<{ contact: ContactRow; changed: boolean; flipped: boolean }[]> {
  if (ids.length === 0) return [];
  const input = JSON.stringify(ids.map((id) => ({ id, flip_id: newId() })));
  const data = patch.data && Object.keys(patch.data).length > 0 ? JSON.stringify(patch.data) : null;
  const result = await db.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(id uuid, flip_id uuid)
    ), old AS (
      SELECT c.id, i.flip_id, c.subscribed AS old_subscribed, COALESCE(${patch.subscribed ?? null}::boolean,
        c.subscribed) AS subscribed,
        c.data AS old_data, ${mergedData(sql`c.data`, sql`${data}::jsonb`)} AS data
      FROM contacts c JOIN input i ON i.id = c.id WHERE c.project_id = ${projectId}
      FOR NO KEY UPDATE OF c
    ), upd AS (
      UPDATE contacts c SET subscribed = o.subscribed, data = o.data, updated_at = now()
      FROM old o WHERE c.id = o.id AND (o.subscribed <> o.old_subscribed OR o.data <> o.old_data)
      RETURNING c.*, o.flip_id, o.subscribed <> o.old_subscribed AS flipped
    ), flips AS (
      ${flipEvents(projectId, sql`(SELECT flip_id, id AS contact_id, subscribed, flipped FROM upd)`)}
    )
    SELECT * FROM upd`);
  return rowsOf<RawContact & { flipped: boolean }>(result).map((raw) => ({
    contact: toContactRow(raw),
    changed: true,
    flipped: raw.flipped,
  }));
}
