import { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import type { ImportRowError } from '../../db/schema/index.ts';
import { violates } from '../../lib/db-errors.ts';
import { defineJob } from '../../queue/registry.ts';
import {
  foldDuplicates,
  importCandidates,
  MalformedImportError,
  validateImportRow,
  type ImportCandidate,
  type ImportFormat,
} from './contacts.import.rows.ts';
import * as imports from './contacts.import.repo.ts';
import { upsertContactRows } from './contacts.repo.ts';
import { recordContactWrites } from './contacts.service.ts';
import type { AppContext } from '../../context.types.ts';

/** Rows per transaction: one multi-row upsert statement each. */
const BATCH_ROWS = 500;
/** Rejected rows listed with their reasons; `rejected` keeps counting past this. */
export const MAX_LISTED_ERRORS = 100;

class Superseded extends Error {}

interface BatchResult {
  created: number;
  updated: number;
  rejected: number;
  errors: ImportRowError[];
}

// Side effect: upserts one batch's valid rows; a row whose merged data would pass the size cap is
// rejected on its own (each attempt in a savepoint, so the batch's transaction survives it).
async function importBatch(
  tx: Tx,
  projectId: string,
  format: ImportFormat,
  batch: ImportCandidate[],
  firstRow: number,
  importId: string,
): Promise<BatchResult> {
  const errors: ImportRowError[] = [];
  const valid: Parameters<typeof foldDuplicates>[0] = [];
  batch.forEach((candidate, i) => {
    const outcome = validateImportRow(candidate, format);
    if ('ok' in outcome) valid.push({ row: firstRow + i, ok: outcome.ok });
    else errors.push({ row: firstRow + i, ...(outcome.email ? { email: outcome.email } : {}), reason: outcome.reason });
  });
  const folded = foldDuplicates(valid);
  const upsert = async (items: typeof folded) => {
    const results = await tx.transaction(async (sp) => {
      const upserted = await upsertContactRows(
        sp,
        projectId,
        items.map((item) => item.ok),
      );
      await recordContactWrites(
        sp,
        projectId,
        upserted.map((r) => ({ contact: r.contact, created: r.inserted, changed: r.changed, flipped: r.flipped })),
        { type: 'import', id: importId },
      );
      return upserted;
    });
    return results.filter((r) => r.inserted).length;
  };
  let created = 0;
  let tooBig = 0;
  try {
    if (folded.length > 0) created = await upsert(folded);
  } catch (error) {
    if (!violates(error, 'contacts_data_size')) throw error;
    for (const item of folded) {
      try {
        created += await upsert([item]);
      } catch (rowError) {
        if (!violates(rowError, 'contacts_data_size')) throw rowError;
        tooBig += item.rows;
        errors.push({
          row: item.row,
          email: item.ok.email,
          reason: "data: the contact's data would exceed 64 KB as JSON",
        });
      }
    }
  }
  const rejected = batch.length - valid.length + tooBig;
  errors.sort((a, b) => a.row - b.row);
  return { created, updated: batch.length - rejected - created, rejected, errors };
}

/** Commits one batch with the checkpoint; throws Superseded when another run moved the checkpoint. */
async function commitBatch(
  db: Db,
  row: imports.ContactImportRow,
  progress: imports.ImportProgress,
  batch: ImportCandidate[],
): Promise<imports.ImportProgress> {
  const from = progress.processed;
  return db.transaction(async (tx) => {
    const result = await importBatch(tx, row.projectId, row.format, batch, from + 1, row.id);
    const next = {
      processed: from + batch.length,
      created: progress.created + result.created,
      updated: progress.updated + result.updated,
      rejected: progress.rejected + result.rejected,
      errors: [...progress.errors, ...result.errors].slice(0, MAX_LISTED_ERRORS),
    };
    if (!(await imports.advanceImport(tx, row.id, from, next))) throw new Superseded();
    return next;
  });
}

/**
 * Runs an import from its checkpoint to the end, parsing the stored upload as it goes (a batch of rows in
 * memory at a time). Each batch commits with the checkpoint, so a crash repeats no committed row; a run
 * that finds the checkpoint moved by another run stops. A file that turns out unreadable part-way fails
 * the import with the parser's reason (the rows before it stay imported).
 */
export async function processImport(db: Db, importId: string): Promise<void> {
  const started = await imports.startImport(db, importId);
  if (!started || started.source === null) return;
  let progress: imports.ImportProgress = {
    processed: started.processed,
    created: started.created,
    updated: started.updated,
    rejected: started.rejected,
    errors: started.errors,
  };
  let seen = 0;
  let batch: ImportCandidate[] = [];
  try {
    for await (const candidate of importCandidates(started.format, started.source)) {
      if (seen++ < progress.processed) continue;
      batch.push(candidate);
      if (batch.length < BATCH_ROWS) continue;
      progress = await commitBatch(db, started, progress, batch);
      batch = [];
    }
    if (batch.length > 0) progress = await commitBatch(db, started, progress, batch);
  } catch (error) {
    if (error instanceof Superseded) return;
    if (error instanceof MalformedImportError)
      return imports.finishImport(db, importId, { status: 'failed', failure: error.message, total: seen });
    throw error;
  }
  await imports.finishImport(db, importId, { status: 'completed', total: seen });
}

/** Bulk contact import (POST /contacts/import): resumes from its checkpoint after a crash or retry. */
export const importContactsJob = defineJob({
  name: 'contacts-import',
  schema: z.object({ importId: z.string() }),
  batchSize: 2,
  queue: { retryLimit: 5, retryDelay: 2, retryBackoff: true },
  async handler({ importId }, ctx: AppContext, job) {
    try {
      await processImport(ctx.db, importId);
    } catch (error) {
      if (job.retryCount >= job.retryLimit) {
        await imports.finishImport(ctx.db, importId, {
          status: 'failed',
          failure: 'The import stopped on an internal error; the rows counted as processed were imported',
        });
      }
      throw error;
    }
  },
});
