// CSV of contacts, streamed: one batch of rows in memory at a time, whatever the number of contacts.
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { validationError } from '../../lib/errors.ts';
import { contactsAfter, dataKeys, MAX_DATA_COLUMNS, type ExportRow } from './exports.repo.ts';

const BATCH = 1000;

/** One CSV field (RFC 4180); a leading =, +, - or @ is prefixed with ' so spreadsheets do not run it as a formula. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (fields: unknown[]) => `${fields.map(csvField).join(',')}\r\n`;

/**
 * The columns, then every matching contact by id. `data: 'columns'` gives one column per top-level data key (read
 * first, in SQL); `'json'` one `data` column of JSON. Throws the 422 before anything is sent.
 */
export async function contactsCsv(opts: {
  db: Executor;
  projectId: string;
  predicate: SQL | undefined;
  data: 'columns' | 'json';
}): Promise<AsyncIterable<string>> {
  const keys = opts.data === 'json' ? [] : await dataKeys(opts.db, opts.projectId, opts.predicate);
  if (keys.length > MAX_DATA_COLUMNS)
    throw validationError(
      'data',
      `The contacts have more than ${MAX_DATA_COLUMNS} data keys: export with data=json`,
      'too_many_columns',
    );
  const header = ['id', 'email', 'subscribed', 'createdAt', 'updatedAt', ...(opts.data === 'json' ? ['data'] : keys)];
  const row = (c: ExportRow) =>
    line([
      c.id,
      c.email,
      c.subscribed,
      c.createdAt.toISOString(),
      c.updatedAt.toISOString(),
      ...(opts.data === 'json' ? [JSON.stringify(c.data)] : keys.map((k) => c.data[k])),
    ]);
  const { db, projectId, predicate } = opts;
  return (async function* rows() {
    yield line(header);
    let after: string | null = null;
    for (;;) {
      const batch = await contactsAfter(db, projectId, predicate, after, BATCH);
      if (batch.length === 0) return;
      yield batch.map(row).join('');
      after = batch[batch.length - 1]!.id;
      if (batch.length < BATCH) return;
    }
  })();
}
