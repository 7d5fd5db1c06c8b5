import type { Db, Executor } from '../../db/client.ts';
import { iso } from '../../lib/http.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import type { JobQueue } from '../../queue/queue.ts';
import { recordAudit, REDACTED } from '../audit/index.ts';
import { checkFilter, requireListSegment, requireSegmentRefs } from '../segments/index.ts';
import { bulkContactsJob } from './contacts.bulk.jobs.ts';
import * as repo from './contacts.bulk.repo.ts';
import type { BulkBody } from './contacts.bulk.schemas.ts';

/** The API shape of a bulk action: its progress counters. */
export function toBulkView(row: repo.ContactBulkRow) {
  return {
    id: row.id,
    action: row.action,
    status: row.status,
    total: row.total,
    processed: row.processed,
    failed: row.failed,
    failure: row.failure,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    finishedAt: iso(row.finishedAt),
  };
}

/** The distinct ids in the order given (lower-cased); a malformed one is a 422 naming its index. */
function checkIds(ids: string[]): string[] {
  const bad = ids.findIndex((id) => !isId(id));
  if (bad >= 0) throw validationError(`contactIds.${bad}`, 'not a contact id', 'invalid_id');
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/**
 * POST /contacts/bulk: checks the input (exactly one of contactIds or filter; the list for the segment actions;
 * data for setData), stores the action with its ids and queues its job in one transaction.
 */
export async function createBulk(opts: {
  db: Db;
  queue: JobQueue;
  projectId: string;
  input: BulkBody;
}): Promise<{ id: string }> {
  const { db, projectId, input } = opts;
  if ((input.contactIds === undefined) === (input.filter === undefined)) {
    throw validationError(
      input.contactIds === undefined ? 'contactIds' : 'filter',
      'Give exactly one of contactIds or filter',
      input.contactIds === undefined ? 'required' : 'not_allowed',
    );
  }
  const ids = input.contactIds === undefined ? null : checkIds(input.contactIds);
  const checked = input.filter === undefined ? null : checkFilter(input.filter, 'filter');
  const forList = input.action === 'addToSegment' || input.action === 'removeFromSegment';
  if (forList && input.segmentId === undefined)
    throw validationError('segmentId', `segmentId is required for ${input.action}`, 'required');
  if (input.action === 'setData' && input.data === undefined)
    throw validationError('data', 'data is required for setData', 'required');
  return db.transaction(async (tx) => {
    if (checked && checked.refs.length > 0) await requireSegmentRefs(tx, projectId, checked.refs);
    if (forList) await requireListSegment({ db: tx, projectId, id: input.segmentId! });
    const row = await repo.insertBulk(tx, {
      id: newId(),
      projectId,
      action: input.action,
      filter: input.filter ?? null,
      total: ids?.length ?? 0,
      segmentId: forList ? input.segmentId!.toLowerCase() : null,
      data: input.action === 'setData' ? input.data! : null,
    });
    if (ids) await repo.insertTargets(tx, row.id, ids);
    // The action and how many contacts it names; a filter (which may name people) and data by their names only.
    const dataNames = Object.keys(row.data ?? {})
      .slice(0, 100)
      .map((key) => `data.${key.slice(0, 100)}`);
    await recordAudit(tx, {
      action: 'contact_bulk.created',
      resourceType: 'contact_bulk',
      resourceId: row.id,
      projectId,
      changes: {
        action: [null, input.action],
        count: [null, ids ? ids.length : null],
        ...(checked ? { filter: [null, REDACTED] } : {}),
        ...(row.segmentId ? { segmentId: [null, row.segmentId] } : {}),
        ...Object.fromEntries(dataNames.map((name) => [name, [REDACTED, REDACTED]])),
      },
    });
    await opts.queue.enqueue(bulkContactsJob, { bulkId: row.id }, { tx, id: row.id });
    return { id: row.id };
  });
}

/** GET /contacts/bulk/{id}: the bulk action of this project, or a 404. */
export async function getBulk(opts: { db: Executor; projectId: string; id: string }) {
  const row = isId(opts.id) ? await repo.findBulk(opts.db, opts.projectId, opts.id) : null;
  if (!row) throw notFound('Bulk action');
  return toBulkView(row);
}
