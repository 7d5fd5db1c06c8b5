import type { AppContext } from '../../context.types.ts';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { SegmentType } from '../../db/schema/index.ts';
import { AppError, type FieldError, findOr404, notFound, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { findDormantAfterDays, toContactView } from '../contacts/index.ts';
import { lockTopics } from '../topics/index.ts';
import type { Filter } from './filter.types.ts';
import { checkFilter, filterError, segmentIdsOf, type FilterRef } from './filter.validate.ts';
import { filterPredicate } from './segments.audience.ts';
import * as repo from './segments.repo.ts';
import { startTracking } from './segments.tracking.ts';

interface SegmentInput {
  name?: string | undefined;
  description?: string | null | undefined;
  type?: SegmentType | undefined;
  filter?: Record<string, unknown> | undefined;
  trackMembership?: boolean | undefined;
}

/** The API shape of a segment; a tracked one also carries its entries and exits of the last 24 hours. */
async function toSegmentView(db: Executor, row: repo.SegmentRow, memberCount: number) {
  const moves = row.trackMembership ? await repo.countMovesSince(db, row.projectId, row.id, 24 * 3600) : null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    filter: row.filter as Record<string, unknown> | null,
    memberCount,
    trackMembership: row.trackMembership,
    ...(moves ? { enteredLast24h: moves.entered, exitedLast24h: moves.exited } : {}),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The members of a stored segment as one SQL predicate (a list's rows, or its compiled filter). */
export function predicateOf(db: Executor, row: repo.SegmentRow) {
  const filter: Filter = row.type === 'STATIC' ? { segment: row.id, operator: 'member' } : (row.filter as Filter);
  return filterPredicate({
    db,
    projectId: row.projectId,
    filter,
    refs: row.type === 'STATIC' ? [row.id] : row.segmentRefs,
  });
}

async function memberCountOf(db: Executor, row: repo.SegmentRow): Promise<number> {
  return repo.countMatching(db, row.projectId, await predicateOf(db, row));
}

/**
 * Records `segment.<verb>` in the audit log, in the transaction of the change: the fields that changed, a filter
 * (which may name people) named but not copied; a deleted segment's name.
 */
function recordSegmentChange(
  tx: Executor,
  verb: string,
  before: repo.SegmentRow | null,
  after: repo.SegmentRow | null,
): Promise<void> {
  const fields = (row: repo.SegmentRow | null) =>
    row && {
      name: row.name,
      description: row.description,
      type: row.type,
      filter: row.filter,
      trackMembership: row.trackMembership,
    };
  const row = (after ?? before)!;
  return recordAudit(tx, {
    action: `segment.${verb}`,
    resourceType: 'segment',
    resourceId: row.id,
    projectId: row.projectId,
    changes: after ? changesOf(fields(before), fields(after)!, { redact: ['filter'] }) : { name: [row.name, null] },
  });
}

/** A DYNAMIC segment needs a filter; a STATIC one takes none (422 on `filter` either way). */
function checkSegmentFilter(type: SegmentType, filter: Record<string, unknown> | undefined) {
  if (type === 'STATIC') {
    if (filter !== undefined)
      throw validationError(
        'filter',
        'A STATIC segment has no filter: add and remove its members instead',
        'not_allowed',
      );
    return null;
  }
  if (filter === undefined) throw validationError('filter', 'A DYNAMIC segment needs a filter', 'required');
  return checkFilter(filter, 'filter');
}

/** The 422 entry of a reference to a segment or topic the project does not have. */
const unknownRef = (ref: FilterRef): FieldError =>
  ref.kind === 'topic'
    ? { field: ref.path, message: 'no topic of this project has this id', code: 'unknown_topic' }
    : { field: ref.path, message: 'no segment of this project has this id', code: 'unknown_segment' };

/**
 * Inside the caller's transaction: the segments and topics a filter names must exist in the project (they are
 * share-locked until commit, so none is deleted meanwhile) and, when saving segment `selfId`, no segment may
 * lead back to it. Problems are a 422 naming each reference's path. Returns the segments' ids.
 */
export async function requireSegmentRefs(
  tx: Executor,
  projectId: string,
  refs: FilterRef[],
  selfId?: string,
): Promise<string[]> {
  const ids = [...new Set(segmentIdsOf(refs))];
  const found = await repo.lockReferencedSegments(tx, projectId, ids);
  const topics = await lockTopics({
    db: tx,
    projectId,
    ids: [...new Set(refs.filter((r) => r.kind === 'topic').map((r) => r.id))],
  });
  const errors: FieldError[] = refs.filter((r) => !(r.kind === 'topic' ? topics : found).has(r.id)).map(unknownRef);
  if (selfId) {
    const reaching = await repo.refsReaching(tx, projectId, ids, selfId);
    for (const ref of refs) {
      if (ref.kind !== 'topic' && (ref.id === selfId || reaching.has(ref.id)))
        errors.push({
          field: ref.path,
          message: 'a segment cannot include itself, directly or through other segments',
          code: 'segment_cycle',
        });
    }
  }
  if (errors.length > 0) throw filterError(errors);
  return ids;
}

/**
 * Inside the caller's transaction: the segment a SEGMENT_ENTERED / SEGMENT_EXITED trigger names (at `path`) must be
 * one of the project's and track its entries and exits, or no event would ever start the workflow: a 422 otherwise.
 * It is share-locked until commit, so its tracking is not turned off (or it deleted) before the trigger is saved.
 */
export async function requireTrackedSegment(opts: {
  db: Executor;
  projectId: string;
  id: string;
  path: string;
}): Promise<void> {
  await requireSegmentRefs(opts.db, opts.projectId, [{ id: opts.id, path: opts.path }]);
  const row = await repo.findSegment(opts.db, opts.projectId, opts.id);
  if (!row || row.trackMembership) return;
  const message =
    `The segment ${JSON.stringify(row.name)} does not track entries ` +
    `and exits (trackMembership is off), so this trigger would never ` +
    `start the workflow`;
  const suggestion =
    `Turn trackMembership on first: PATCH /segments/${row.id} {"trackMembership": ` +
    `true} ("Track entries and exits" on the segment's page).`;
  throw new AppError('VALIDATION_ERROR', `${message}. ${suggestion}`, {
    errors: [{ field: opts.path, message, code: 'segment_not_tracked' }],
    suggestion,
  });
}

/** A segment of the project, or 404 (also for another project's id). */
export function requireSegment(opts: { db: Executor; projectId: string; id: string }): Promise<repo.SegmentRow> {
  return findOr404('Segment', opts.id, () => repo.findSegment(opts.db, opts.projectId, opts.id));
}

/** POST /segments: a DYNAMIC segment's filter is validated (422 naming the path); a STATIC one starts empty. */
export async function createSegment(opts: {
  db: Executor;
  projectId: string;
  input: Required<Pick<SegmentInput, 'name'>> & SegmentInput;
}) {
  const { input, projectId } = opts;
  const type = input.type ?? 'DYNAMIC';
  const checked = checkSegmentFilter(type, input.filter);
  const row = await opts.db.transaction(async (tx) => {
    const refs = checked ? await requireSegmentRefs(tx, projectId, checked.refs) : [];
    const created = await repo.insertSegment(tx, {
      id: newId(),
      projectId,
      name: input.name,
      description: input.description ?? null,
      type,
      filter: checked?.filter ?? null,
      segmentRefs: refs,
      trackMembership: input.trackMembership ?? false,
    });
    await recordSegmentChange(tx, 'created', null, created);
    return created;
  });
  if (row.trackMembership && type === 'DYNAMIC') await startTracking({ db: opts.db, row });
  return toSegmentView(opts.db, row, await memberCountOf(opts.db, row));
}

/** GET /segments/{id}, with its live member count. */
export async function getSegment(opts: { db: Executor; projectId: string; id: string }) {
  const row = await requireSegment({ db: opts.db, projectId: opts.projectId, id: opts.id });
  return toSegmentView(opts.db, row, await memberCountOf(opts.db, row));
}

/** GET /segments: newest first (of one type, or the lists a contact is on), each with its live member count. */
export async function listSegments(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
  type?: SegmentType | undefined;
  memberId?: string | undefined;
}) {
  const { rows, total } = await repo.listSegments(opts.db, opts.projectId, opts);
  const views = [];
  for (const row of rows.slice(0, opts.limit))
    views.push(await toSegmentView(opts.db, row, await memberCountOf(opts.db, row)));
  const page = toPage(rows, opts.limit, total, (row) => row.id);
  return { ...page, items: views };
}

/**
 * PATCH /segments/{id}: a new filter is checked like on create, and may not lead back to this segment. Tracking
 * stays on while workflows start on its entries or exits (409 naming them).
 */
export async function updateSegment(opts: { ctx: AppContext; projectId: string; id: string; input: SegmentInput }) {
  const { input, projectId, id } = opts;
  const db = opts.ctx.db;
  if (!isId(id)) throw notFound('Segment');
  const { before, row } = await db.transaction(async (tx) => {
    const current = await repo.lockSegment(tx, projectId, id);
    if (!current) throw notFound('Segment');
    if (input.trackMembership === false && current.trackMembership) {
      const blocker = await opts.ctx.references.blockerOf('segmentTracking', { db: tx, projectId, id });
      if (blocker)
        throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    }
    const checked = input.filter === undefined ? null : checkSegmentFilter(current.type, input.filter);
    const refs = checked ? await requireSegmentRefs(tx, projectId, checked.refs, id) : undefined;
    const patch = Object.fromEntries(
      Object.entries({
        name: input.name,
        description: input.description,
        filter: checked?.filter,
        segmentRefs: refs,
        trackMembership: input.trackMembership,
      }).filter(([, v]) => v !== undefined),
    );
    const updated = await repo.updateSegmentRow(tx, projectId, id, patch);
    if (updated) await recordSegmentChange(tx, 'updated', current, updated);
    return { before: current, row: updated };
  });
  if (!row) throw notFound('Segment');
  // Tracking (re)starts from the members now: contacts already in do not "enter" when tracking is turned on.
  if (row.type === 'DYNAMIC' && row.trackMembership && !before.trackMembership) await startTracking({ db, row });
  if (row.type === 'DYNAMIC' && !row.trackMembership && before.trackMembership) await repo.clearSnapshot(db, row.id);
  return toSegmentView(db, row, await memberCountOf(db, row));
}

/** DELETE /segments/{id}: 409 while another segment, a draft, scheduled or sending campaign, or a workflow names it. */
export async function deleteSegment(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { projectId, id } = opts;
  if (!isId(id)) throw notFound('Segment');
  await opts.ctx.db.transaction(async (tx) => {
    const current = await repo.lockSegment(tx, projectId, id);
    if (!current) throw notFound('Segment');
    const including = await repo.segmentsNaming(tx, projectId, id);
    if (including.length > 0)
      throw new AppError('CONFLICT', `Other segments include this segment (${including.join(', ')})`);
    const blocker = await opts.ctx.references.blockerOf('segment', { db: tx, projectId, id });
    if (blocker)
      throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    await repo.deleteSegmentRow(tx, projectId, id);
    await recordSegmentChange(tx, 'deleted', current, null);
  });
  return { id, deleted: true as const };
}

/** GET /segments/{id}/contacts: the members now, newest first, in the contact shape. */
export async function listSegmentContacts(opts: {
  db: Executor;
  projectId: string;
  id: string;
  limit: number;
  cursor?: string | undefined;
}) {
  const row = await requireSegment({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const predicate = await predicateOf(opts.db, row);
  const rows = await repo.listMatching(opts.db, opts.projectId, predicate, opts);
  const total = await repo.countMatching(opts.db, opts.projectId, predicate);
  const days = await findDormantAfterDays(opts);
  return toPage(rows, opts.limit, total, (contact) => toContactView(contact, days));
}

/**
 * GET /segments/count: how many of the project's contacts a filter matches now, before it is saved (the segment
 * builder's live count). The filter is checked as on save: a 422 names each problem's path.
 */
export async function countFilter(opts: { db: Executor; projectId: string; filter: Record<string, unknown> }) {
  const checked = checkFilter(opts.filter, 'filter');
  return opts.db.transaction(async (tx) => {
    const refs = await requireSegmentRefs(tx, opts.projectId, checked.refs);
    const predicate = await filterPredicate({ db: tx, projectId: opts.projectId, filter: checked.filter, refs });
    return { count: await repo.countMatching(tx, opts.projectId, predicate) };
  });
}

/** How many of the project's contacts match a compiled filter predicate (an audience's size). */
export async function countMatchingContacts(opts: {
  db: Executor;
  projectId: string;
  predicate: SQL;
}): Promise<number> {
  return repo.countMatching(opts.db, opts.projectId, opts.predicate);
}

/** The contacts a predicate matches, and how many of them have no value (absent, null or "") at each data key. */
export async function countMissingData(opts: {
  db: Executor;
  projectId: string;
  predicate: SQL;
  keys: string[];
}): Promise<{ total: number; missing: number[] }> {
  return repo.countMissingData(opts.db, opts.projectId, opts.predicate, opts.keys);
}

/** The members of a segment of the project as one SQL predicate on contacts (404 for an unknown segment). */
export async function segmentMembersPredicate(opts: { db: Executor; projectId: string; id: string }): Promise<SQL> {
  return predicateOf(opts.db, await requireSegment(opts));
}
