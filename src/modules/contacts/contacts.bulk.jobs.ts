import { z } from 'zod';
import type { AppContext, Erasure } from '../../context.types.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { defineJob } from '../../queue/registry.ts';
import {
  addSegmentMembers,
  checkFilter,
  filterPredicate,
  removeSegmentMembers,
  segmentIdsOf,
} from '../segments/index.ts';
import * as repo from './contacts.bulk.repo.ts';
import { deleteContactsById, existingContactIds, patchContactsById } from './contacts.service.ts';

/** Contacts per transaction (the segments' member calls take at most 1,000). */
const BATCH_CONTACTS = 500;

/** What a run needs: the database, and the erasure a delete runs in its transaction. */
type BulkContext = Pick<AppContext, 'db' | 'erasure'>;

class Superseded extends Error {}

/** A problem that ends the whole action (its list was deleted, a segment its filter names is gone). */
class Stopped extends Error {}

/**
 * Applies the action to one batch of existing contacts through the same services as the one-by-one changes,
 * in the batch's transaction. Returns how many could not be changed (setData past the 64 KB cap).
 */
async function applyAction(tx: Tx, erasure: Erasure, row: repo.ContactBulkRow, ids: string[]): Promise<number> {
  const { projectId } = row;
  const bulk = { type: 'bulk', id: row.id } as const;
  switch (row.action) {
    case 'subscribe':
    case 'unsubscribe':
      await patchContactsById({ db: tx, projectId, ids, subscribed: row.action === 'subscribe', consent: bulk });
      return 0;
    case 'setData':
      try {
        await patchContactsById({ db: tx, projectId, ids, data: row.data!, consent: bulk });
        return 0;
      } catch (error) {
        // One contact whose merged data would pass the cap fails alone: retry them one by one (each in a savepoint).
        if (!(error instanceof AppError) || error.statusCode !== 422) throw error;
        let failed = 0;
        for (const id of ids) {
          try {
            await patchContactsById({ db: tx, projectId, ids: [id], data: row.data!, consent: bulk });
          } catch (rowError) {
            if (!(rowError instanceof AppError) || rowError.statusCode !== 422) throw rowError;
            failed++;
          }
        }
        return failed;
      }
    case 'delete':
      await deleteContactsById({ db: tx, erasure, projectId, ids });
      return 0;
    case 'addToSegment':
    case 'removeFromSegment': {
      const members = row.action === 'addToSegment' ? addSegmentMembers : removeSegmentMembers;
      try {
        await members({ db: tx, projectId, id: row.segmentId!, input: { contactIds: ids } });
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 404)
          throw new Stopped('The list was deleted while the action ran');
        throw error;
      }
      return 0;
    }
  }
}

/** Crash tests only: called inside each batch's transaction, after its changes and before its checkpoint. */
type BatchProbe = (processed: number) => void;

/** Commits one batch with the checkpoint; throws Superseded when another run moved the checkpoint. */
async function commitBatch(
  { db, erasure }: BulkContext,
  row: repo.ContactBulkRow,
  progress: { processed: number; failed: number },
  targets: string[],
  probe?: BatchProbe,
) {
  return db.transaction(async (tx) => {
    const existing = await existingContactIds({ db: tx, projectId: row.projectId, ids: targets });
    const ids = targets.filter((id) => existing.has(id));
    const failed = targets.length - ids.length + (ids.length > 0 ? await applyAction(tx, erasure, row, ids) : 0);
    probe?.(progress.processed);
    const next = { processed: progress.processed + targets.length, failed: progress.failed + failed };
    if (!(await repo.advanceBulk(tx, row.id, progress.processed, next))) throw new Superseded();
    return next;
  });
}

/**
 * QUEUED → RUNNING: a filter's matches become the numbered targets in the same transaction, so they are resolved
 * once; a retried run finds the action RUNNING and goes on from its checkpoint. Null when it is finished.
 */
async function startBulk(db: Db, bulkId: string): Promise<repo.ContactBulkRow | null> {
  return db.transaction(async (tx) => {
    const row = await repo.lockUnfinishedBulk(tx, bulkId);
    if (!row || row.status === 'RUNNING') return row;
    if (row.filter === null) return repo.markRunning(tx, row.id);
    const checked = checkFilter(row.filter, 'filter');
    let predicate;
    try {
      predicate = await filterPredicate({
        db: tx,
        projectId: row.projectId,
        filter: checked.filter,
        refs: segmentIdsOf(checked.refs),
      });
    } catch (error) {
      if (error instanceof AppError) throw new Stopped(`The filter no longer applies: ${error.message}`);
      throw error;
    }
    return repo.markRunning(tx, row.id, await repo.insertMatchingTargets(tx, row.id, row.projectId, predicate));
  });
}

/**
 * Runs a bulk action from its checkpoint to the end, a batch of targets per transaction committed with the
 * counters, so a crash repeats no committed batch; a run that finds the checkpoint moved by another run stops.
 */
export async function processBulk(ctx: BulkContext, bulkId: string, probe?: BatchProbe): Promise<void> {
  const { db } = ctx;
  try {
    const row = await startBulk(db, bulkId);
    if (!row) return;
    let progress = { processed: row.processed, failed: row.failed };
    while (progress.processed < row.total) {
      const targets = await repo.nextTargets(db, row.id, progress.processed, BATCH_CONTACTS);
      if (targets.length === 0) break;
      progress = await commitBatch(ctx, row, progress, targets, probe);
    }
  } catch (error) {
    if (error instanceof Superseded) return;
    if (error instanceof Stopped) return repo.finishBulk(db, bulkId, { status: 'FAILED', failure: error.message });
    throw error;
  }
  await repo.finishBulk(db, bulkId, { status: 'COMPLETED' });
}

/**
 * HERALD_TEST_FAULT=kill-mid-bulk-batch: the process dies (SIGKILL) with its second batch changed but not committed.
 */
const killInSecondBatch: BatchProbe = (processed) => {
  if (processed > 0) process.kill(process.pid, 'SIGKILL');
};

/** A bulk action on contacts (POST /contacts/bulk): resumes from its checkpoint after a crash or retry. */
export const bulkContactsJob = defineJob({
  name: 'contacts-bulk',
  schema: z.object({ bulkId: z.string() }),
  batchSize: 2,
  queue: { retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, heartbeatSeconds: 10 },
  async handler({ bulkId }, ctx: AppContext, job) {
    try {
      await processBulk(ctx, bulkId, ctx.config.testFault === 'kill-mid-bulk-batch' ? killInSecondBatch : undefined);
    } catch (error) {
      if (job.retryCount >= job.retryLimit) {
        await repo.finishBulk(ctx.db, bulkId, {
          status: 'FAILED',
          failure: 'The action stopped on an internal error; the contacts counted as processed were changed',
        });
      }
      throw error;
    }
  },
});
