import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { JsonObject } from '../../db/schema/index.ts';
import { validationError } from '../../lib/errors.ts';
import type { UpsertRow } from './contacts.repo.ts';
import { upsertContactBody } from './contacts.schemas.ts';

export type ImportFormat = 'csv' | 'json';

export const IMPORT_MAX_ROWS = 100_000;

/** A data row of an upload: the value to validate, or why it could not even be read. */
export type ImportCandidate = { value: unknown } | { error: string };

export type ImportOutcome = { ok: UpsertRow } | { email?: string; reason: string };

/** The delimiter of a CSV file, from its header line: comma unless the header only has semicolons or tabs. */
function delimiterOf(source: string): string {
  const header = source.slice(0, source.search(/\r?\n|$/));
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  return header.includes('\t') ? '\t' : ',';
}

function parseCsv(source: string): ImportCandidate[] {
  let records: string[][];
  try {
    records = parse(source, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true, delimiter: delimiterOf(source) });
  } catch (error) {
    throw validationError('body', `Malformed CSV: ${error instanceof Error ? error.message : String(error)}`, 'invalid_csv');
  }
  const header = (records[0] ?? []).map((name) => name.trim());
  const lower = header.map((name) => name.toLowerCase());
  if (!lower.includes('email')) {
    throw validationError('body', 'The CSV header row must have an "email" column', 'missing_email_column');
  }
  return records.slice(1).map((cells): ImportCandidate => {
    if (cells.length > header.length) return { error: `has ${cells.length} columns, the header has ${header.length}` };
    const value: { email?: string; subscribed?: unknown; data: JsonObject } = { data: {} };
    cells.forEach((cell, i) => {
      if (cell === '' || !header[i]) return;
      if (lower[i] === 'email') value.email = cell;
      else if (lower[i] === 'subscribed') value.subscribed = cell;
      else value.data[header[i]!] = cell;
    });
    return { value };
  });
}

/**
 * The data rows of an upload (CSV with a header row, or the JSON text of an array). A file that cannot
 * be read as a whole, or holds no rows or more than 100,000, is a 422; a bad row is only rejected later.
 */
export function parseImportSource(format: ImportFormat, source: string): ImportCandidate[] {
  const rows = format === 'csv'
    ? parseCsv(source)
    : (JSON.parse(source) as unknown[]).map((value): ImportCandidate => ({ value }));
  checkRowCount(rows.length);
  return rows;
}

/** 422 for an import without data rows or with more than 100,000. */
export function checkRowCount(rows: number): void {
  if (rows === 0) throw validationError('body', 'The import has no data rows', 'empty');
  if (rows > IMPORT_MAX_ROWS) throw validationError('body', `An import holds at most ${IMPORT_MAX_ROWS} rows`, 'too_big');
}

const csvBoolean = z.stringbool({ truthy: ['true', '1', 'yes', 'y'], falsy: ['false', '0', 'no', 'n'] });

/** Checks one row with the same rules as POST /contacts; CSV cells for `subscribed` are read as booleans. */
export function validateImportRow(candidate: ImportCandidate, format: ImportFormat): ImportOutcome {
  if ('error' in candidate) return { reason: candidate.error };
  let value = candidate.value;
  const email = typeof (value as { email?: unknown } | null)?.email === 'string' ? (value as { email: string }).email : undefined;
  if (format === 'csv') {
    const row = value as { subscribed?: string };
    if (row.subscribed !== undefined) {
      const subscribed = csvBoolean.safeParse(row.subscribed);
      if (!subscribed.success) return { ...(email ? { email } : {}), reason: 'subscribed: expected true or false' };
      value = { ...row, subscribed: subscribed.data };
    }
  }
  const parsed = upsertContactBody.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    return { ...(email ? { email } : {}), reason: field ? `${field}: ${issue.message}` : `expected an object with an email (${issue.message})` };
  }
  const { email: normalized, subscribed, data } = parsed.data;
  return { ok: { email: normalized, subscribed, defaultSubscribed: true, patch: data ?? undefined } };
}

/**
 * Folds rows of one batch that name the same email into one, in file order (later values win, data
 * merges key by key): one statement cannot update a row twice. A folded row keeps its last row number
 * and how many rows it stands for.
 */
export function foldDuplicates(items: { row: number; ok: UpsertRow }[]): { row: number; ok: UpsertRow; rows: number }[] {
  const byEmail = new Map<string, { row: number; ok: UpsertRow; rows: number }>();
  for (const item of items) {
    const seen = byEmail.get(item.ok.email);
    if (!seen) {
      byEmail.set(item.ok.email, { ...item, rows: 1 });
      continue;
    }
    const patch = seen.ok.patch || item.ok.patch ? { ...seen.ok.patch, ...item.ok.patch } : undefined;
    const ok = { ...item.ok, subscribed: item.ok.subscribed ?? seen.ok.subscribed, patch };
    byEmail.set(item.ok.email, { row: item.row, ok, rows: seen.rows + 1 });
  }
  return [...byEmail.values()];
}
