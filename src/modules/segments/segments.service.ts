import type { AppContext } from '../../context.types.ts';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError, type FieldError, findOr404, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { toContactView } from '../contacts/index.ts';
import type { Filter } from './filter.types.ts';
import { checkFilter, filterError, type SegmentRef } from './filter.validate.ts';
import { filterPredicate } from './segments.audience.ts';
import * as repo from './segments.repo.ts';

interface SegmentInput {
  name?: string | undefined;
  description?: string | null | undefined;
  filter?: Record<string, unknown> | undefined;
}

function toSegmentView(row: repo.SegmentRow, memberCount: number) {
  return {
    id: row.id, name: row.name, description: row.description, filter: row.filter as Record<string, unknown>, memberCount,
    createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt),
  };
}

/** The compiled filter of a stored segment. */
function predicateOf(db: Executor, row: repo.SegmentRow) {
  return filterPredicate({ db, projectId: row.projectId, filter: row.filter as Filter, refs: row.segmentRefs });
}

async function memberCountOf(db: Executor, row: repo.SegmentRow): Promise<number> {
  return repo.countMatching(db, row.projectId, await predicateOf(db, row));
}

/**
 * Inside the caller's transaction: the segments a filter names must exist in the project (they are
 * share-locked until commit, so none is deleted meanwhile) and, when saving segment `selfId`, none may
 * lead back to it. Problems are a 422 naming each reference's path.
 */
export async function requireSegmentRefs(tx: Executor, projectId: string, refs: SegmentRef[], selfId?: string): Promise<string[]> {
  const ids = [...new Set(refs.map((r) => r.id))];
  const found = await repo.lockReferencedSegments(tx, projectId, ids);
  const errors: FieldError[] = refs.filter((r) => !found.has(r.id))
    .map((r) => ({ field: r.path, message: 'no segment of this project has this id', code: 'unknown_segment' }));
  if (selfId) {
    const reaching = await repo.refsReaching(tx, projectId, ids, selfId);
    for (const ref of refs) {
      if (ref.id === selfId || reaching.has(ref.id)) errors.push({ field: ref.path, message: 'a segment cannot include itself, directly or through other segments', code: 'segment_cycle' });
    }
  }
  if (errors.length > 0) throw filterError(errors);
  return ids;
}

/** A segment of the project, or 404 (also for another project's id). */
export function requireSegment(opts: { db: Executor; projectId: string; id: string }): Promise<repo.SegmentRow> {
  return findOr404('Segment', opts.id, () => repo.findSegment(opts.db, opts.projectId, opts.id));
}

/** POST /segments: validates the filter (422 naming the path), then stores it. */
export async function createSegment(opts: { db: Executor; projectId: string; input: Required<Pick<SegmentInput, 'name' | 'filter'>> & SegmentInput }) {
  const { input, projectId } = opts;
  const checked = checkFilter(input.filter, 'filter');
  const row = await opts.db.transaction(async (tx) => {
    const refs = await requireSegmentRefs(tx, projectId, checked.refs);
    return repo.insertSegment(tx, { id: newId(), projectId, name: input.name, description: input.description ?? null, filter: checked.filter, segmentRefs: refs });
  });
  return toSegmentView(row, await memberCountOf(opts.db, row));
}

/** GET /segments/{id}, with its live member count. */
export async function getSegment(opts: { db: Executor; projectId: string; id: string }) {
  const row = await requireSegment({ db: opts.db, projectId: opts.projectId, id: opts.id });
  return toSegmentView(row, await memberCountOf(opts.db, row));
}

/** GET /segments: newest first, each with its live member count. */
export async function listSegments(opts: { db: Executor; projectId: string; limit: number; cursor?: string | undefined }) {
  const { rows, total } = await repo.listSegments(opts.db, opts.projectId, opts);
  const counts = new Map<string, number>();
  for (const row of rows.slice(0, opts.limit)) counts.set(row.id, await memberCountOf(opts.db, row));
  return toPage(rows, opts.limit, total, (row) => toSegmentView(row, counts.get(row.id) ?? 0));
}

/** PATCH /segments/{id}: a new filter is checked like on create, and may not lead back to this segment. */
export async function updateSegment(opts: { db: Executor; projectId: string; id: string; input: SegmentInput }) {
  const { input, projectId, id } = opts;
  if (!isId(id)) throw notFound('Segment');
  const checked = input.filter === undefined ? null : checkFilter(input.filter, 'filter');
  const row = await opts.db.transaction(async (tx) => {
    if (!(await repo.lockSegment(tx, projectId, id))) throw notFound('Segment');
    const refs = checked ? await requireSegmentRefs(tx, projectId, checked.refs, id) : undefined;
    const patch = Object.fromEntries(Object.entries({
      name: input.name, description: input.description, filter: checked?.filter, segmentRefs: refs,
    }).filter(([, v]) => v !== undefined));
    return repo.updateSegmentRow(tx, projectId, id, patch);
  });
  if (!row) throw notFound('Segment');
  return toSegmentView(row, await memberCountOf(opts.db, row));
}

/** DELETE /segments/{id}: 409 while another segment, a draft, scheduled or sending campaign, or a workflow names it. */
export async function deleteSegment(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { projectId, id } = opts;
  if (!isId(id)) throw notFound('Segment');
  await opts.ctx.db.transaction(async (tx) => {
    if (!(await repo.lockSegment(tx, projectId, id))) throw notFound('Segment');
    const including = await repo.segmentsNaming(tx, projectId, id);
    if (including.length > 0) throw new AppError('CONFLICT', `Other segments include this segment (${including.join(', ')})`);
    const blocker = await opts.ctx.references.blockerOf('segment', { db: tx, projectId, id });
    if (blocker) throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    await repo.deleteSegmentRow(tx, projectId, id);
  });
  return { id, deleted: true as const };
}

/** GET /segments/{id}/contacts: the members now, newest first, in the contact shape. */
export async function listSegmentContacts(opts: { db: Executor; projectId: string; id: string; limit: number; cursor?: string | undefined }) {
  const row = await requireSegment({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const predicate = await predicateOf(opts.db, row);
  const rows = await repo.listMatching(opts.db, opts.projectId, predicate, opts);
  const total = await repo.countMatching(opts.db, opts.projectId, predicate);
  return toPage(rows, opts.limit, total, toContactView);
}

/** How many of the project's contacts match a compiled filter predicate (an audience's size). */
export async function countMatchingContacts(opts: { db: Executor; projectId: string; predicate: SQL }): Promise<number> {
  return repo.countMatching(opts.db, opts.projectId, opts.predicate);
}
