// Contact properties: declared keys of contacts' `data`, each with a type and a fallback that templates render where a
// contact has no value. A declaration changes no contact's data.
import type { Executor } from '../../db/client.ts';
import type { ContactPropertyType } from '../../db/schema/index.ts';
import { violates } from '../../lib/db-errors.ts';
import { AppError, findOr404, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import * as repo from './contacts.properties.repo.ts';

/** What a key may look like: a name templates can read as a variable. */
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

/** Keys templates already give a meaning (the contact's own fields and the message's links). */
const RESERVED = new Set([
  'email',
  'contact',
  'firstName',
  'lastName',
  'unsubscribeUrl',
  'manageUrl',
  'viewInBrowserUrl',
]);

export type ContactPropertyView = ReturnType<typeof toContactPropertyView>;

function toContactPropertyView(row: repo.ContactPropertyRow) {
  return {
    id: row.id,
    key: row.key,
    type: row.type,
    fallback: row.fallback ?? null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A fallback of the property's type, or null (422 on `field` otherwise). */
function checkFallback(type: ContactPropertyType, fallback: unknown, field: string): string | number | null {
  if (fallback === null || fallback === undefined) return null;
  if (type === 'string' && typeof fallback === 'string' && fallback.length <= 2000) return fallback;
  if (type === 'number' && typeof fallback === 'number' && Number.isFinite(fallback)) return fallback;
  throw validationError(field, `must be a ${type} (the property's type), or null`, 'invalid_type');
}

function recordPropertyChange(
  tx: Executor,
  verb: string,
  before: repo.ContactPropertyRow | null,
  after: repo.ContactPropertyRow | null,
) {
  const fields = (row: repo.ContactPropertyRow | null) =>
    row && { key: row.key, type: row.type, fallback: row.fallback };
  const row = (after ?? before)!;
  return recordAudit(tx, {
    action: `contact_property.${verb}`,
    resourceType: 'contact_property',
    resourceId: row.id,
    projectId: row.projectId,
    changes: after ? changesOf(fields(before), fields(after)!) : { key: [row.key, null] },
  });
}

/** A declared property of the project, or 404. */
function requireContactProperty(opts: { db: Executor; projectId: string; id: string }) {
  return findOr404('Contact property', opts.id, () => repo.findContactProperty(opts.db, opts.projectId, opts.id));
}

/** Declares a key (409 when the project already has it). */
export async function createContactProperty(opts: {
  db: Executor;
  projectId: string;
  input: { key: string; type: ContactPropertyType; fallback?: unknown };
}): Promise<ContactPropertyView> {
  const { key, type } = opts.input;
  if (!KEY.test(key))
    throw validationError('key', 'must be 1-50 letters, digits or _, not starting with a digit', 'invalid_key');
  if (RESERVED.has(key)) throw validationError('key', `"${key}" is a contact field of its own`, 'reserved');
  const fallback = checkFallback(type, opts.input.fallback, 'fallback');
  try {
    const row = await opts.db.transaction(async (tx) => {
      const created = await repo.insertContactProperty(tx, {
        id: newId(),
        projectId: opts.projectId,
        key,
        type,
        fallback,
      });
      await recordPropertyChange(tx, 'created', null, created);
      return created;
    });
    return toContactPropertyView(row);
  } catch (error) {
    if (violates(error, 'contact_properties_project_key_idx'))
      throw new AppError('CONFLICT', `The property "${key}" already exists`);
    throw error;
  }
}

export async function getContactProperty(opts: { db: Executor; projectId: string; id: string }) {
  return toContactPropertyView(await requireContactProperty(opts));
}

/** Newest first. */
export async function listContactProperties(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
}) {
  const { rows, total } = await repo.listContactProperties(opts.db, opts.projectId, {
    limit: opts.limit,
    ...(opts.cursor ? { cursor: opts.cursor } : {}),
  });
  return toPage(rows, opts.limit, total, toContactPropertyView);
}

/** Changes the fallback (the key and type are fixed once declared). */
export async function updateContactProperty(opts: {
  db: Executor;
  projectId: string;
  id: string;
  fallback: unknown;
}): Promise<ContactPropertyView> {
  const current = await requireContactProperty(opts);
  const fallback = checkFallback(current.type, opts.fallback, 'fallback');
  const row = await opts.db.transaction(async (tx) => {
    const updated = await repo.updateContactPropertyFallback(tx, opts.projectId, current.id, fallback);
    if (updated) await recordPropertyChange(tx, 'updated', current, updated);
    return updated;
  });
  if (!row) throw new AppError('NOT_FOUND', 'Contact property not found');
  return toContactPropertyView(row);
}

/** Removes the declaration; contacts keep their values. */
export async function deleteContactProperty(opts: { db: Executor; projectId: string; id: string }) {
  const current = await requireContactProperty(opts);
  await opts.db.transaction(async (tx) => {
    if (await repo.deleteContactPropertyRow(tx, opts.projectId, current.id))
      await recordPropertyChange(tx, 'deleted', current, null);
  });
  return { id: current.id, deleted: true as const };
}

/** The project's fallbacks by key (the declared keys that have one), for rendering. */
export async function findDataFallbacks(opts: { db: Executor; projectId: string }): Promise<Record<string, unknown>> {
  const rows = await repo.allContactProperties(opts.db, opts.projectId);
  return Object.fromEntries(rows.filter((row) => row.fallback !== null).map((row) => [row.key, row.fallback]));
}

/** The declared type of each key of the project. */
export async function findPropertyTypes(opts: {
  db: Executor;
  projectId: string;
}): Promise<Map<string, ContactPropertyType>> {
  const rows = await repo.allContactProperties(opts.db, opts.projectId);
  return new Map(rows.map((row) => [row.key, row.type]));
}
