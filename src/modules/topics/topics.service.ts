import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { TopicDefault } from '../../db/schema/index.ts';
import { AppError, findOr404, notFound, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { changesOf, recordAudit, REDACTED } from '../audit/index.ts';
import {
  findContact,
  recordConsent,
  recordContactChanged,
  requestSource,
  type ConsentSource,
} from '../contacts/index.ts';
import * as repo from './topics.repo.ts';

export type { TopicRow } from './topics.repo.ts';

/** The API shape of a topic. */
export function toTopicView(row: repo.TopicRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    defaultSubscription: row.defaultSubscription,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A topic of the project, or 404 (also for another project's id). */
export function requireTopic(opts: { db: Executor; projectId: string; id: string }): Promise<repo.TopicRow> {
  return findOr404('Topic', opts.id, () => repo.findTopic(opts.db, opts.projectId, opts.id.toLowerCase()));
}

/** Records `topic.<verb>` with the fields that changed (a deleted topic's name), in the transaction of the change. */
function recordTopicChange(tx: Executor, verb: string, before: repo.TopicRow | null, after: repo.TopicRow | null) {
  const fields = (row: repo.TopicRow | null) =>
    row && {
      name: row.name,
      description: row.description,
      defaultSubscription: row.defaultSubscription,
    };
  const row = (after ?? before)!;
  return recordAudit(tx, {
    action: `topic.${verb}`,
    resourceType: 'topic',
    resourceId: row.id,
    projectId: row.projectId,
    changes: after ? changesOf(fields(before), fields(after)!) : { name: [row.name, null] },
  });
}

/** POST /topics. */
export async function createTopic(opts: {
  db: Executor;
  projectId: string;
  input: { name: string; description?: string | null | undefined; defaultSubscription: TopicDefault };
}) {
  const { input } = opts;
  return toTopicView(
    await opts.db.transaction(async (tx) => {
      const created = await repo.insertTopic(tx, {
        id: newId(),
        projectId: opts.projectId,
        name: input.name,
        description: input.description ?? null,
        defaultSubscription: input.defaultSubscription,
      });
      await recordTopicChange(tx, 'created', null, created);
      return created;
    }),
  );
}

/** GET /topics: newest first. */
export async function listTopics(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
}) {
  const { rows, total } = await repo.listTopics(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, toTopicView);
}

/** GET /topics/{id}. */
export async function getTopic(opts: { db: Executor; projectId: string; id: string }) {
  return toTopicView(await requireTopic(opts));
}

/** PATCH /topics/{id}: name and description; the default is fixed at create (contacts' choices rest on it). */
export async function updateTopic(opts: {
  db: Executor;
  projectId: string;
  id: string;
  input: {
    name?: string | undefined;
    description?: string | null | undefined;
    defaultSubscription?: TopicDefault | undefined;
  };
}) {
  const current = await requireTopic(opts);
  const { input } = opts;
  if (input.defaultSubscription !== undefined && input.defaultSubscription !== current.defaultSubscription) {
    throw new AppError('CONFLICT', "A topic's defaultSubscription cannot change after it is created", {
      suggestion: 'Create a new topic with the other default',
    });
  }
  const patch = Object.fromEntries(
    Object.entries({ name: input.name, description: input.description }).filter(([, v]) => v !== undefined),
  );
  const row = await opts.db.transaction(async (tx) => {
    const updated = await repo.updateTopicRow(tx, opts.projectId, current.id, patch);
    if (updated) await recordTopicChange(tx, 'updated', current, updated);
    return updated;
  });
  if (!row) throw notFound('Topic');
  return toTopicView(row);
}

/**
 * DELETE /topics/{id}: the contacts' choices go with it. 409 while a draft, scheduled or sending campaign is
 * limited to it (its audience would silently widen to everyone), or a filter that is still used has a condition
 * on it (a segment's, an unsent campaign's audience, a CONDITION step of a workflow in use); sent and cancelled
 * campaigns lose their topicId.
 */
export async function deleteTopic(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { projectId } = opts;
  if (!isId(opts.id)) throw notFound('Topic');
  const id = opts.id.toLowerCase();
  await opts.ctx.db.transaction(async (tx) => {
    const current = await repo.lockTopic(tx, projectId, id);
    if (!current) throw notFound('Topic');
    const blocker = await opts.ctx.references.blockerOf('topic', { db: tx, projectId, id });
    if (blocker)
      throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    await repo.deleteTopicRow(tx, projectId, id);
    await recordTopicChange(tx, 'deleted', current, null);
  });
  return { id: opts.id, deleted: true as const };
}

/** Every topic of the project with this contact's choice (or the topic's default), oldest topic first. */
export async function listContactTopics(opts: { db: Executor; projectId: string; contactId: string }) {
  return (await listContactTopicChoices(opts)).map(({ description: _description, ...choice }) => choice);
}

/** listContactTopics with each topic's description. */
export async function listContactTopicChoices(opts: { db: Executor; projectId: string; contactId: string }) {
  const contact = isId(opts.contactId)
    ? await findContact({ db: opts.db, projectId: opts.projectId, id: opts.contactId })
    : null;
  if (!contact) throw notFound('Contact');
  const [all, choices] = await Promise.all([
    repo.allTopics(opts.db, opts.projectId),
    repo.contactChoices(opts.db, contact.id),
  ]);
  return all.map((t) => ({
    topicId: t.id,
    name: t.name,
    description: t.description,
    subscribed: choices.get(t.id) ?? t.defaultSubscription === 'OPT_OUT',
  }));
}

/**
 * PATCH /contacts/{id}/topics: records the contact's choices (every id must be a topic of the project: 422); a change
 * is `contact.updated`.
 */
export async function setContactTopics(opts: {
  db: Executor;
  projectId: string;
  contactId: string;
  topics: { id: string; subscribed: boolean }[];
}) {
  const contact = isId(opts.contactId)
    ? await findContact({ db: opts.db, projectId: opts.projectId, id: opts.contactId })
    : null;
  if (!contact) throw notFound('Contact');
  const ids = opts.topics.map((t) => (isId(t.id) ? t.id.toLowerCase() : ''));
  const known = await repo.existingTopicIds(opts.db, opts.projectId, ids.filter(Boolean));
  const bad = ids.findIndex((id) => !known.has(id));
  if (bad !== -1) throw validationError(`topics.${bad}.id`, 'no topic of this project has this id', 'unknown_topic');
  await opts.db.transaction(async (tx) => {
    await writeChoices({
      db: tx,
      projectId: opts.projectId,
      contactId: contact.id,
      choices: opts.topics.map((t, i) => ({ topicId: ids[i]!, subscribed: t.subscribed })),
      consent: requestSource(),
    });
    // A contact's choices are its own: the log names the topics given, never what was chosen.
    await recordAudit(tx, {
      action: 'contact.topics_updated',
      resourceType: 'contact',
      resourceId: contact.id,
      projectId: opts.projectId,
      changes: ids.length > 0 ? Object.fromEntries(ids.map((id) => [`topics.${id}`, [REDACTED, REDACTED]])) : null,
    });
  });
  return listContactTopics(opts);
}

/** Of these contacts, those out of the topic (a send with `topicId` skips them). */
export function findContactsOutOfTopic(opts: {
  db: Executor;
  topic: repo.TopicRow;
  contactIds: string[];
}): Promise<Set<string>> {
  return repo.contactsOutOfTopic(opts.db, opts.topic, opts.contactIds);
}

/** A topic of the project, or null (a malformed id is simply not found). */
export async function findTopic(opts: { db: Executor; projectId: string; id: string }): Promise<repo.TopicRow | null> {
  return isId(opts.id) ? repo.findTopic(opts.db, opts.projectId, opts.id.toLowerCase()) : null;
}

/** The ids, each a topic of the project (lower-cased); a 422 naming `<field>.<index>` otherwise. */
export async function requireTopicIds(opts: {
  db: Executor;
  projectId: string;
  ids: string[];
  field: string;
}): Promise<string[]> {
  const ids = opts.ids.map((id) => (isId(id) ? id.toLowerCase() : ''));
  const known = await repo.existingTopicIds(opts.db, opts.projectId, ids.filter(Boolean));
  const bad = ids.findIndex((id) => !known.has(id));
  if (bad !== -1)
    throw validationError(`${opts.field}.${bad}`, 'no topic of this project has this id', 'unknown_topic');
  return ids;
}

/**
 * Which of these (lower-case) ids are topics of the project, share-locked until the caller's transaction ends:
 * a filter naming them is saved before any of them can be deleted (a delete checks who names the topic).
 */
export function lockTopics(opts: { db: Executor; projectId: string; ids: string[] }): Promise<Set<string>> {
  return repo.lockTopicIds(opts.db, opts.projectId, opts.ids);
}

/** Records that a contact chose in to these (checked) topics. */
export async function chooseTopics(opts: {
  db: Executor;
  projectId: string;
  contactId: string;
  topicIds: string[];
  consent: ConsentSource;
}): Promise<void> {
  // Part of the signup that creates or updates the contact: its own events already announce the change.
  await writeChoices({
    ...opts,
    choices: opts.topicIds.map((topicId) => ({ topicId, subscribed: true })),
    announce: false,
  });
}

/**
 * Records a contact's topic choices: each one that changed is a topic_in / topic_out entry of the consent ledger from
 * `consent`, and the contact is `contact.updated`. Pass the transaction of the change.
 */
export async function writeChoices(opts: {
  db: Executor;
  projectId: string;
  contactId: string;
  choices: { topicId: string; subscribed: boolean }[];
  consent: ConsentSource;
  /** Queue `contact.updated` for the change (default true). */
  announce?: boolean;
}): Promise<void> {
  const changed = await repo.upsertChoices(opts.db, opts.contactId, opts.choices);
  if (changed.length === 0) return;
  if (opts.announce !== false)
    await recordContactChanged({ db: opts.db, projectId: opts.projectId, id: opts.contactId });
  await recordConsent(
    opts.db,
    opts.projectId,
    opts.consent,
    changed.map((c) => ({
      contactId: opts.contactId,
      action: c.subscribed ? ('topic_in' as const) : ('topic_out' as const),
      topicId: c.topicId,
    })),
  );
}
