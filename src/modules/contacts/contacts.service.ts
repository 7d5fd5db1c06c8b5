import type { AppContext, Erasure } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { JsonObject } from '../../db/schema/index.ts';
import { violates } from '../../lib/db-errors.ts';
import { normalizeEmail, unicodeEmail } from '../../lib/email-address.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { recordAudit, REDACTED } from '../audit/index.ts';
import * as repo from './contacts.repo.ts';
import { recordConsent, subscriptionEntries, type ConsentSource } from './contacts.consent.ts';
import { engagementView, type EngagementView } from './contacts.engagement.ts';
import { findDormantAfterDays } from './contacts.engagement.service.ts';
import { emitContactEvents, type ContactChange } from './contacts.webhooks.ts';
import { activeSnooze, setContactSnooze } from './contacts.snooze.ts';

export type { ContactRow } from './contacts.repo.ts';

export type { UpsertRow, UpsertedContact } from './contacts.repo.ts';

export interface ContactView {
  id: string;
  email: string;
  emailUnicode: string;
  subscribed: boolean;
  data: JsonObject;
  locale: string | null;
  confirmation: ConfirmationView;
  engagement: EngagementView;
  /** Marketing mail is paused until then; null when not snoozed (or the snooze has passed). */
  snoozedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A contact with where it stands: `never_subscribed` is told apart from an opt-out. */
export type ContactDetail = ContactView & { subscription: repo.SubscriptionState };

export interface ConfirmationView {
  status: 'NONE' | 'PENDING' | 'CONFIRMED';
  sentAt: string | null;
  confirmedAt: string | null;
}

/** The contact's double opt-in state; NONE when it was never asked to confirm. */
export function confirmationOf(row: repo.ContactRow): ConfirmationView {
  return {
    status: row.confirmationStatus ?? 'NONE',
    sentAt: iso(row.confirmationSentAt),
    confirmedAt: iso(row.confirmedAt),
  };
}

/** The API shape of a contact; its engagement level by the project's dormantAfterDays (findDormantAfterDays). */
export function toContactView(row: repo.ContactRow, dormantAfterDays: number): ContactView {
  return {
    id: row.id,
    email: row.email,
    emailUnicode: unicodeEmail(row.email),
    subscribed: row.subscribed,
    data: row.data,
    locale: row.locale,
    confirmation: confirmationOf(row),
    engagement: engagementView(row, dormantAfterDays),
    snoozedUntil: iso(activeSnooze(row.snoozedUntil)),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** How every path stores an address (lib/email-address.ts; the schemas do it too, internal callers rely on this). */
export { normalizeEmail };

/**
 * What every write of contacts records in its transaction: the webhook events of the changes and the consent ledger's
 * entries of subscription changes, from `consent`.
 */
export async function recordContactWrites(
  db: Executor,
  projectId: string,
  changes: ContactChange[],
  consent: ConsentSource,
): Promise<void> {
  await emitContactEvents(db, projectId, changes);
  await recordConsent(db, projectId, consent, subscriptionEntries(changes));
}

const changesOf = (results: repo.UpsertedContact[]): ContactChange[] =>
  results.map((r) => ({ contact: r.contact, created: r.inserted, changed: r.changed, flipped: r.flipped }));

/** Turns constraint violations of a contact write into the API's 422 and 409. */
async function contactWrite<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (violates(error, 'contacts_data_size'))
      throw validationError('data', "The contact's data would exceed 64 KB as JSON", 'too_big');
    if (violates(error, 'contacts_project_email_idx'))
      throw new AppError('CONFLICT', 'Another contact of this project has this email');
    throw error;
  }
}

/**
 * Creates or updates contacts by email in one statement, recording `contact.subscribed`/`unsubscribed`
 * on every flip and each row's `event`. Every module that touches contacts by email goes through here;
 * pass a transaction as `db` to make it part of a larger write.
 */
export async function upsertContacts(opts: {
  db: Executor;
  projectId: string;
  rows: repo.UpsertRow[];
  /** Where the change comes from, for the consent ledger. */
  consent: ConsentSource;
}): Promise<repo.UpsertedContact[]> {
  const rows = opts.rows.map((row) => ({ ...row, email: normalizeEmail(row.email) }));
  return contactWrite(
    opts.db.transaction(async (tx) => {
      const results = await repo.upsertContactRows(tx, opts.projectId, rows);
      await recordContactWrites(tx, opts.projectId, changesOf(results), opts.consent);
      return results;
    }),
  );
}

/** POST /contacts: new → `subscribed` defaults to true; existing → only the fields given change. */
export async function upsertContact(opts: {
  db: Executor;
  projectId: string;
  email: string;
  subscribed?: boolean | undefined;
  data?: JsonObject | null | undefined;
  locale?: string | null | undefined;
  consent: ConsentSource;
}): Promise<{ contact: ContactDetail; isNew: boolean }> {
  const row = {
    email: normalizeEmail(opts.email),
    subscribed: opts.subscribed,
    defaultSubscribed: true,
    patch: opts.data ?? undefined,
    locale: opts.locale,
  };
  const [result] = await contactWrite(
    opts.db.transaction(async (tx) => {
      const results = await repo.upsertContactRows(tx, opts.projectId, [row]);
      await recordContactWrites(tx, opts.projectId, changesOf(results), opts.consent);
      const [one] = results;
      if (one && (one.inserted || one.changed)) {
        await recordAudit(tx, {
          action: one.inserted ? 'contact.created' : 'contact.updated',
          resourceType: 'contact',
          resourceId: one.contact.id,
          projectId: opts.projectId,
          changes: contactFieldNames(opts),
        });
      }
      return results;
    }),
  );
  const days = await findDormantAfterDays(opts);
  const contact = await withSubscription(opts.db, opts.projectId, toContactView(result!.contact, days));
  return { contact, isNew: result!.inserted };
}

/**
 * What the audit log keeps of a change to a contact: the names of the fields given (`email`, `subscribed`, `locale`,
 * `data.<key>`), never their values, so erasing the contact leaves nothing personal behind.
 */
function contactFieldNames(change: {
  email?: string | undefined;
  subscribed?: boolean | undefined;
  locale?: string | null | undefined;
  data?: JsonObject | null | undefined;
}): Record<string, [unknown, unknown]> | null {
  const names = [
    ...(change.email !== undefined ? ['email'] : []),
    ...(change.subscribed !== undefined ? ['subscribed'] : []),
    ...(change.locale !== undefined ? ['locale'] : []),
    ...Object.keys(change.data ?? {})
      .slice(0, 100)
      .map((key) => `data.${key.slice(0, 100)}`),
  ];
  return names.length > 0 ? Object.fromEntries(names.map((name) => [name, [REDACTED, REDACTED]])) : null;
}

/** PATCH /contacts/{id} and every other change by id (unsubscribe links, workflows): flips are recorded. */
export async function updateContact(opts: {
  db: Executor;
  projectId: string;
  id: string;
  email?: string | undefined;
  subscribed?: boolean | undefined;
  data?: JsonObject | null | undefined;
  /** The contact's language (canonical BCP 47); null clears it. */
  locale?: string | null | undefined;
  /** Pause marketing mail until then; null resumes it; omitted keeps it (see setContactSnooze). */
  snoozedUntil?: string | Date | null | undefined;
  /** A change asked for through the API (recorded in the audit log), not by a link in mail or a workflow. */
  audited?: boolean;
  /** Where the change comes from, for the consent ledger. */
  consent: ConsentSource;
}): Promise<ContactDetail> {
  const patch = {
    email: opts.email === undefined ? undefined : normalizeEmail(opts.email),
    subscribed: opts.subscribed,
    data: opts.data ?? undefined,
    locale: opts.locale,
  };
  const updated = isId(opts.id)
    ? await contactWrite(
        opts.db.transaction(async (tx) => {
          const result = await repo.updateContactRow(tx, opts.projectId, opts.id, patch);
          if (result) await recordContactWrites(tx, opts.projectId, [result], opts.consent);
          if (result && opts.snoozedUntil !== undefined) {
            result.contact = await setContactSnooze({
              db: tx,
              projectId: opts.projectId,
              id: opts.id,
              until: opts.snoozedUntil === null ? null : new Date(opts.snoozedUntil),
              consent: opts.consent,
              ...(opts.audited ? { audited: true } : {}),
            });
          }
          const onlySnooze = opts.snoozedUntil !== undefined && contactFieldNames(opts) === null;
          if (result && opts.audited && !onlySnooze)
            await recordAudit(tx, {
              action: 'contact.updated',
              resourceType: 'contact',
              resourceId: opts.id,
              projectId: opts.projectId,
              changes: contactFieldNames(opts),
            });
          return result;
        }),
      )
    : null;
  if (!updated) throw notFound('Contact');
  return withSubscription(opts.db, opts.projectId, toContactView(updated.contact, await findDormantAfterDays(opts)));
}

/**
 * A change of the contact that another module keeps (its topic choices): its `updatedAt` moves and `contact.updated`
 * is queued for the webhooks, as for a change of its own fields. Pass the transaction of the change as `db`.
 */
export async function recordContactChanged(opts: { db: Executor; projectId: string; id: string }): Promise<void> {
  const row = await repo.touchContactRow(opts.db, opts.projectId, opts.id);
  if (row) await emitContactEvents(opts.db, opts.projectId, [{ contact: row, changed: true }]);
}

/** One contact of the project, or a 404 (also for another project's contact or a malformed id). */
export async function getContact(opts: { db: Executor; projectId: string; id: string }): Promise<ContactDetail> {
  const row = isId(opts.id) ? await repo.findContact(opts.db, opts.projectId, opts.id) : null;
  if (!row) throw notFound('Contact');
  return withSubscription(opts.db, opts.projectId, toContactView(row, await findDormantAfterDays(opts)));
}

/** GET /contacts: newest first, filtered by subscription, email substring or exact email. */
export async function listContacts(
  opts: { db: Executor; projectId: string; limit: number; cursor?: string | undefined } & repo.ContactFilters,
) {
  const { rows, total } = await repo.listContacts(opts.db, opts.projectId, opts);
  const days = await findDormantAfterDays(opts);
  const subscription = await subscriptionStates(opts.db, opts.projectId, rows);
  return toPage(rows, opts.limit, total, (row) => ({ ...toContactView(row, days), subscription: subscription(row) }));
}

/**
 * Where each contact stands, by the consent ledger: subscribed; unsubscribed (subscribed once, then left); or never
 * subscribed (a recipient of transactional mail, or added unsubscribed), which is not an opt-out.
 */
async function subscriptionStates(
  db: Executor,
  projectId: string,
  rows: Pick<repo.ContactRow, 'id' | 'subscribed'>[],
): Promise<(row: Pick<repo.ContactRow, 'id' | 'subscribed'>) => repo.SubscriptionState> {
  const unsubscribed = rows.filter((row) => !row.subscribed).map((row) => row.id);
  const ever = await repo.everSubscribedAmong(db, projectId, unsubscribed);
  return (row) => (row.subscribed ? 'subscribed' : ever.has(row.id) ? 'unsubscribed' : 'never_subscribed');
}

/** A contact's view with where it stands (`subscription`), as the contact list shows it. */
async function withSubscription<T extends ContactView>(
  db: Executor,
  projectId: string,
  view: T,
): Promise<T & { subscription: repo.SubscriptionState }> {
  const subscription = await subscriptionStates(db, projectId, [view]);
  return { ...view, subscription: subscription(view) };
}

/**
 * Removes contacts with their events, erases their addresses from their emails (kept for counts; suppressions keep
 * them) and queues `contact.deleted` for each: the one path of DELETE /contacts/{id} and a bulk delete. Returns the
 * ids it deleted (unknown ones are left out).
 */
export async function deleteContactsById(opts: {
  db: Executor;
  erasure: Erasure;
  projectId: string;
  ids: string[];
}): Promise<string[]> {
  const { projectId } = opts;
  if (opts.ids.length === 0) return [];
  return opts.db.transaction(async (tx) => {
    const rows = await repo.deleteContacts(tx, projectId, opts.ids);
    if (opts.ids.length === 1 && rows[0])
      await recordAudit(tx, { action: 'contact.deleted', resourceType: 'contact', resourceId: rows[0].id, projectId });
    await opts.erasure.eraseContacts({
      db: tx,
      projectId,
      contacts: rows.map((row) => ({ id: row.id, email: row.email })),
    });
    await emitContactEvents(
      tx,
      projectId,
      rows.map((contact) => ({ contact, deleted: true })),
    );
    return rows.map((row) => row.id);
  });
}

/** DELETE /contacts/{id}: removes the contact and its events, and erases its address from its emails. */
export async function deleteContact(opts: {
  ctx: Pick<AppContext, 'db' | 'erasure'>;
  projectId: string;
  id: string;
}): Promise<{ id: string; deleted: true }> {
  const deleted =
    isId(opts.id) &&
    (
      await deleteContactsById({
        db: opts.ctx.db,
        erasure: opts.ctx.erasure,
        projectId: opts.projectId,
        ids: [opts.id],
      })
    ).length > 0;
  if (!deleted) throw notFound('Contact');
  return { id: opts.id, deleted: true };
}

/**
 * Sets `subscribed` and/or merges `data` (a null value deletes the key) into many contacts by id, as PATCH
 * /contacts/{id} does one: flips record contact.subscribed / contact.unsubscribed, webhooks are queued.
 */
export async function patchContactsById(opts: {
  db: Executor;
  projectId: string;
  ids: string[];
  subscribed?: boolean | undefined;
  data?: JsonObject | undefined;
  consent: ConsentSource;
}): Promise<number> {
  if (opts.ids.length === 0) return 0;
  return contactWrite(
    opts.db.transaction(async (tx) => {
      const changed = await repo.patchContactRows(tx, opts.projectId, opts.ids, {
        subscribed: opts.subscribed,
        data: opts.data,
      });
      await recordContactWrites(tx, opts.projectId, changed, opts.consent);
      return changed.length;
    }),
  );
}

/** Which of these ids are contacts of the project (ids that are no UUID are simply not). */
export async function existingContactIds(opts: {
  db: Executor;
  projectId: string;
  ids: string[];
}): Promise<Set<string>> {
  return new Set((await repo.findContactEmails(opts.db, opts.projectId, opts.ids.filter(isId))).keys());
}

/** The project's contact with this id; null when there is none. */
export async function findContact(opts: {
  db: Executor;
  projectId: string;
  id: string;
}): Promise<repo.ContactRow | null> {
  return repo.findContact(opts.db, opts.projectId, opts.id);
}

/** The addresses of the project's contacts with these ids, stored form and as people write it, by id. */
export async function findContactEmails(opts: {
  db: Executor;
  projectId: string;
  ids: string[];
}): Promise<Map<string, { email: string; emailUnicode: string }>> {
  const found = await repo.findContactEmails(opts.db, opts.projectId, [...new Set(opts.ids)]);
  return new Map([...found].map(([id, email]) => [id, { email, emailUnicode: unicodeEmail(email) }]));
}

/** The project's contacts with these addresses (normalised), by address. */
export async function findContactsByEmails(opts: {
  db: Executor;
  projectId: string;
  emails: string[];
}): Promise<Map<string, repo.ContactRow>> {
  return repo.findContactsByEmails(opts.db, opts.projectId, opts.emails);
}
