import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import type { JobQueue } from '../../queue/queue.ts';
import { recordAudit } from '../audit/index.ts';
import { importContactsJob } from './contacts.jobs.ts';
import * as repo from './contacts.import.repo.ts';
import { checkRowCount } from './contacts.import.rows.ts';
import { countCsvRows } from './contacts.import.upload.ts';

/** The API shape of an import: progress counters and the first rejected rows. */
export function toImportView(row: repo.ContactImportRow) {
  return {
    id: row.id,
    status: row.status,
    format: row.format,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    rejected: row.rejected,
    errors: row.errors,
    failure: row.failure,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    finishedAt: iso(row.finishedAt),
  };
}

/**
 * POST /contacts/import: stores the upload (a CSV text already checked while it arrived: size, rows,
 * quotes, an email column; or a JSON array of 1–100,000 rows) and queues its job in one transaction.
 * Nothing is parsed here: the job parses and checks the rows.
 */
export async function createImport(opts: { db: Db; queue: JobQueue; projectId: string; body: string | unknown[] }) {
  let format: 'csv' | 'json';
  let source: string;
  let total: number;
  if (typeof opts.body === 'string') {
    format = 'csv';
    source = opts.body;
    total = countCsvRows(source);
  } else {
    format = 'json';
    source = JSON.stringify(opts.body);
    total = opts.body.length;
    checkRowCount(total);
  }
  return opts.db.transaction(async (tx) => {
    const row = await repo.insertImport(tx, { id: newId(), projectId: opts.projectId, format, source, total });
    // How many rows, never the rows: they are people's addresses and data.
    await recordAudit(tx, {
      action: 'contact_import.created',
      resourceType: 'contact_import',
      resourceId: row.id,
      projectId: opts.projectId,
      changes: { format: [null, format], rows: [null, total] },
    });
    await opts.queue.enqueue(importContactsJob, { importId: row.id }, { tx, id: row.id });
    return toImportView(row);
  });
}

/** GET /contacts/import/{id}: the import of this project, or a 404. */
export async function getImport(opts: { db: Executor; projectId: string; id: string }) {
  const row = isId(opts.id) ? await repo.findImport(opts.db, opts.projectId, opts.id) : null;
  if (!row) throw notFound('Import');
  return toImportView(row);
}
