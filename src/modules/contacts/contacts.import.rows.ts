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

/** What a user reads when a CSV's header names no email column. */
export const NO_EMAIL_COLUMN = 'The file has no email column: its first row must name the columns, one of them "email"';

export type ImportOutcome = { ok: UpsertRow } | { email?: string; reason: string };

/** The delimiter of a CSV file, from its header line: comma unless the header only has semicolons or tabs. */
export function delimiterOf(source: string): string {
  const header = source.slice(0, source.search(/\r?\n|$/));
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  return header.includes('\t') ? '\t' : ',';
}

/** A file the import job cannot read on (the rows before it stay imported). */
export class MalformedImportError extends Error {
  override name = 'MalformedImportError';
}

function candidateOf(header: string[], lower: string[], cells: string[]): ImportCandidate {
  if (cells.length > header.length) return { error: `has ${cells.length} columns, the header has ${header.length}` };
  const value: { email?: string; subscribed?: unknown; locale?: string; data: JsonObject } = { data: {} };
  cells.forEach((cell, i) => {
    if (cell === '' || !header[i]) return;
    if (lower[i] === 'email') value.email = cell;
    else if (lower[i] === 'subscribed') value.subscribed = cell;
    else if (lower[i] === 'locale') value.locale = cell;
    else value.data[header[i]!] = cell;
  });
  return { value };
}

/**
 * The records of a CSV text, in order, delimited as the upload counted them (RFC 4180: a line break inside
 * quotes stays in its record; empty lines are none), one slice at a time.
 */
function* csvRecords(text: string): Generator<string> {
  let start = 0;
  let inQuotes = false;
  let content = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      inQuotes = !inQuotes;
      content = true;
    } else if ((c === 0x0a || c === 0x0d) && !inQuotes) {
      if (content) yield text.slice(start, i);
      start = i + 1;
      content = false;
    } else {
      content = true;
    }
  }
  if (content) yield text.slice(start);
}

const CSV_OPTIONS = { relax_column_count: true, trim: true } as const;

/**
 * Cells of some records: parsed together, or one by one when that fails (a record the parser refuses is a rejected
 * row).
 */
function cellsOf(records: string[], delimiter: string): (string[] | { error: string })[] {
  try {
    const rows = parse(records.join('\n'), { ...CSV_OPTIONS, delimiter }) as string[][];
    if (rows.length === records.length) return rows;
  } catch {
    // one of them is malformed: find which
  }
  return records.map((record) => {
    try {
      return (parse(record, { ...CSV_OPTIONS, delimiter }) as string[][])[0] ?? [];
    } catch (error) {
      return { error: `Malformed CSV: ${error instanceof Error ? error.message : String(error)}` };
    }
  });
}

/** The data rows of a CSV text, parsed 500 records at a time as the job reads on. */
function* csvCandidates(source: string): Generator<ImportCandidate> {
  const records = csvRecords(source);
  const first = records.next();
  if (first.done) return;
  const delimiter = delimiterOf(first.value);
  let header: string[];
  try {
    header = ((parse(first.value, { ...CSV_OPTIONS, bom: true, delimiter }) as string[][])[0] ?? []).map((name) =>
      name.trim(),
    );
  } catch (error) {
    throw new MalformedImportError(`Malformed CSV header: ${error instanceof Error ? error.message : String(error)}`);
  }
  const lower = header.map((name) => name.toLowerCase());
  if (!lower.includes('email')) throw new MalformedImportError(NO_EMAIL_COLUMN);
  let batch: string[] = [];
  const flush = function* () {
    for (const cells of cellsOf(batch, delimiter))
      yield Array.isArray(cells) ? candidateOf(header, lower, cells) : cells;
    batch = [];
  };
  for (const record of records) {
    batch.push(record);
    if (batch.length === 500) yield* flush();
  }
  yield* flush();
}

/**
 * The data rows of a stored upload, in file order: CSV (header row) parsed as it is read, or the JSON text
 * of an array. Parsing happens here, in the import job, never on the request path.
 */
export async function* importCandidates(format: ImportFormat, source: string): AsyncGenerator<ImportCandidate> {
  if (format === 'csv') {
    yield* csvCandidates(source);
    return;
  }
  for (const value of JSON.parse(source) as unknown[]) yield { value };
}

/** 422 for an import without data rows or with more than 100,000. */
export function checkRowCount(rows: number): void {
  if (rows === 0) throw validationError('body', 'The import has no data rows', 'empty');
  if (rows > IMPORT_MAX_ROWS)
    throw validationError('body', `An import holds at most ${IMPORT_MAX_ROWS} rows`, 'too_big');
}

const csvBoolean = z.stringbool({ truthy: ['true', '1', 'yes', 'y'], falsy: ['false', '0', 'no', 'n'] });

/** Checks one row with the same rules as POST /contacts; CSV cells for `subscribed` are read as booleans. */
export function validateImportRow(candidate: ImportCandidate, format: ImportFormat): ImportOutcome {
  if ('error' in candidate) return { reason: candidate.error };
  let value = candidate.value;
  const email =
    typeof (value as { email?: unknown } | null)?.email === 'string' ? (value as { email: string }).email : undefined;
  if (format === 'csv') {
    const row = value as { subscribed?: string };
    if (row.subscribed !== undefined) {
      const subscribed = csvBoolean.safeParse(row.subscribed);
      if (!subscribed.success) return { ...(email ? { email } : {}), reason: 'subscribed: expected true or false' };
      value = { ...row, subscribed: subscribed.data };
    }
  }
  // A row (CSV) or object (JSON) without an address: said plainly rather than as the validator's words.
  const raw =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { email?: unknown }).email : 0;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
    return { reason: 'No email address in this row' };
  const parsed = upsertContactBody.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    return {
      ...(email ? { email } : {}),
      reason: field ? `${field}: ${issue.message}` : `expected an object with an email (${issue.message})`,
    };
  }
  const { email: normalized, subscribed, data, locale } = parsed.data;
  return {
    ok: {
      email: normalized,
      subscribed,
      defaultSubscribed: true,
      patch: data ?? undefined,
      ...(locale !== undefined ? { locale } : {}),
    },
  };
}

/**
 * Folds rows of one batch that name the same email into one, in file order (later values win, data
 * merges key by key): one statement cannot update a row twice. A folded row keeps its last row number
 * and how many rows it stands for.
 */
export function foldDuplicates(
  items: { row: number; ok: UpsertRow }[],
): { row: number; ok: UpsertRow; rows: number }[] {
  const byEmail = new Map<string, { row: number; ok: UpsertRow; rows: number }>();
  for (const item of items) {
    const seen = byEmail.get(item.ok.email);
    if (!seen) {
      byEmail.set(item.ok.email, { ...item, rows: 1 });
      continue;
    }
    const patch = seen.ok.patch || item.ok.patch ? { ...seen.ok.patch, ...item.ok.patch } : undefined;
    const locale = item.ok.locale !== undefined ? item.ok.locale : seen.ok.locale;
    const ok = { ...item.ok, subscribed: item.ok.subscribed ?? seen.ok.subscribed, patch, locale };
    byEmail.set(item.ok.email, { row: item.row, ok, rows: seen.rows + 1 });
  }
  return [...byEmail.values()];
}
