// The members of a list (STATIC segment): added and removed by email or contact id, at most 1,000 per call.
import type { Executor } from '../../db/client.ts';
import { normalizeEmail, parseAddress } from '../../lib/email-address.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { recordAudit } from '../audit/index.ts';
import { findContactsByEmails, requestSource, upsertContacts } from '../contacts/index.ts';
import * as repo from './segments.repo.ts';
import { MEMBERS_PER_CALL } from './segments.schemas.ts';
import { deleteMembers, insertMembers } from './segments.tracking.ts';

export interface MembersInput {
  emails?: string[] | undefined;
  contactIds?: string[] | undefined;
  createMissing?: boolean | undefined;
}

interface MembersChange {
  db: Executor;
  projectId: string;
  id: string;
  input: MembersInput;
  /** A change asked for through the API (recorded in the audit log), not a step of a bulk action's job. */
  audited?: boolean | undefined;
}

/** The row when it is a list: 404 for none, 409 for a DYNAMIC segment, whose members follow its filter. */
function listOr409(row: repo.SegmentRow | null): repo.SegmentRow {
  if (!row) throw notFound('Segment');
  if (row.type !== 'STATIC') {
    throw new AppError(
      'CONFLICT',
      'The members of a DYNAMIC segment are the contacts matching its filter: they cannot be added or removed',
      {
        suggestion: 'Change the filter, or create a segment with "type": "STATIC" to keep a list by hand',
      },
    );
  }
  return row;
}

/** The list, locked for the call (404 unknown, 409 DYNAMIC). */
async function lockList(tx: Executor, projectId: string, id: string): Promise<repo.SegmentRow> {
  return listOr409(isId(id) ? await repo.lockSegment(tx, projectId, id) : null);
}

/**
 * Checks that `id` names a list (STATIC segment) of the project whose members can be edited: 404 unknown, 409 DYNAMIC.
 */
export async function requireListSegment(opts: { db: Executor; projectId: string; id: string }): Promise<void> {
  listOr409(isId(opts.id) ? await repo.findSegment(opts.db, opts.projectId, opts.id) : null);
}

/** The contact ids the call names, and what names no contact of the project (as given). */
async function resolveContacts(
  tx: Executor,
  projectId: string,
  input: MembersInput,
  create: boolean,
): Promise<{ ids: string[]; missing: string[]; created: number }> {
  const emails = input.emails ?? [];
  const contactIds = input.contactIds ?? [];
  if (emails.length + contactIds.length > MEMBERS_PER_CALL) {
    throw validationError('emails', `At most ${MEMBERS_PER_CALL} emails and contact ids in one call`, 'too_big');
  }
  if (emails.length + contactIds.length === 0) throw validationError('emails', 'Give emails or contactIds', 'required');
  const missing: string[] = [];
  const ids = new Set<string>();
  const valid = emails.filter((e) => parseAddress(e).ok);
  missing.push(...emails.filter((e) => !parseAddress(e).ok));
  const stored = valid.map(normalizeEmail);
  const found = await findContactsByEmails({ db: tx, projectId, emails: stored });
  const absent = stored.filter((e) => !found.has(e));
  let created = 0;
  if (create && absent.length > 0) {
    const rows = [...new Set(absent)].map((email) => ({ email, defaultSubscribed: true }));
    const upserted = await upsertContacts({ db: tx, projectId, rows, consent: requestSource() });
    for (const c of upserted) found.set(c.contact.email, c.contact);
    created = upserted.filter((c) => c.inserted).length;
  }
  valid.forEach((email, i) => {
    const contact = found.get(stored[i]!);
    if (contact) ids.add(contact.id);
    else missing.push(email);
  });
  const wellFormed = contactIds.filter(isId).map((id) => id.toLowerCase());
  const known = await repo.existingContactIds(tx, projectId, wellFormed);
  for (const id of contactIds) {
    if (isId(id) && known.has(id.toLowerCase())) ids.add(id.toLowerCase());
    else missing.push(id);
  }
  return { ids: [...ids], missing, created };
}

/** POST /segments/{id}/members: adds contacts to a list (creating missing ones when asked). */
export async function addSegmentMembers(opts: MembersChange) {
  return opts.db.transaction(async (tx) => {
    const row = await lockList(tx, opts.projectId, opts.id);
    const create = opts.input.createMissing === true;
    const { ids, missing, created } = await resolveContacts(tx, opts.projectId, opts.input, create);
    const added = await insertMembers(tx, row, ids);
    // Counts only: who was added is the list itself, and the addresses given are personal data.
    if (opts.audited) {
      await recordAudit(tx, {
        action: 'segment.members_added',
        resourceType: 'segment',
        resourceId: row.id,
        projectId: opts.projectId,
        changes: { added: [null, added.length], ...(created > 0 ? { contactsCreated: [null, created] } : {}) },
      });
    }
    return { added: added.length, alreadyMembers: ids.length - added.length, missing };
  });
}

/** DELETE /segments/{id}/members: removes contacts from a list (names that are no member are ignored). */
export async function removeSegmentMembers(opts: MembersChange) {
  return opts.db.transaction(async (tx) => {
    const row = await lockList(tx, opts.projectId, opts.id);
    const { ids } = await resolveContacts(tx, opts.projectId, { ...opts.input, createMissing: false }, false);
    const removed = await deleteMembers(tx, row, ids);
    if (opts.audited) {
      await recordAudit(tx, {
        action: 'segment.members_removed',
        resourceType: 'segment',
        resourceId: row.id,
        projectId: opts.projectId,
        changes: { removed: [null, removed] },
      });
    }
    return { removed };
  });
}
