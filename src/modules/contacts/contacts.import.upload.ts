// CSV uploads of POST /contacts/import, read as a stream: sizes and row counts are checked while the
// bytes arrive, nothing is parsed on the request path (the import job parses the file).
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { AppError, validationError } from '../../lib/errors.ts';
import { IMPORT_MAX_ROWS, NO_EMAIL_COLUMN, delimiterOf } from './contacts.import.rows.ts';

/** Largest CSV upload: far above what 100,000 rows take, and what the request may hold in memory. */
export const CSV_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Longest record (the header included): a contact's data is at most 64 KB, so a real row is far shorter. Without a
 * bound, one huge record would cost the CSV parser seconds of CPU per MB.
 */
export const CSV_RECORD_MAX_BYTES = 128 * 1024;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the records of CSV bytes as they arrive (RFC 4180: line breaks inside quotes do not end a
 * record; empty lines are no record, as the parser skips them), without keeping or decoding anything.
 */
export class CsvRecordCounter {
  records = 0;
  inQuotes = false;
  /** Byte offset of the end of the first record (the header), or -1 while it has not ended. */
  headerEnd = -1;
  /** Bytes of the longest record so far (the one still open included). */
  longest = 0;
  private content = false;
  private offset = 0;
  private recordStart = 0;

  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === QUOTE) {
        this.inQuotes = !this.inQuotes;
        this.content = true;
      } else if ((c === LF || c === CR) && !this.inQuotes) {
        if (this.content) this.endRecord(this.offset + i);
        this.recordStart = this.offset + i + 1;
      } else {
        this.content = true;
      }
    }
    this.offset += chunk.length;
    if (this.content) this.longest = Math.max(this.longest, this.offset - this.recordStart);
  }

  /** Counts a last record without a line break; call once the bytes have ended. */
  end(): void {
    if (this.content) this.endRecord(this.offset);
  }

  /** Records after the header. */
  get dataRows(): number {
    return Math.max(0, this.records - 1);
  }

  private endRecord(at: number): void {
    this.longest = Math.max(this.longest, at - this.recordStart);
    this.records++;
    if (this.headerEnd === -1) this.headerEnd = at;
    this.content = false;
  }
}

/** Data rows of a stored CSV text, counted as the upload was. */
export function countCsvRows(text: string): number {
  const counter = new CsvRecordCounter();
  counter.push(Buffer.from(text, 'utf8'));
  counter.end();
  return counter.dataRows;
}

/** 422 unless the header record names an `email` column. */
function checkHeader(header: string): void {
  let columns: string[];
  try {
    columns = (parse(header, { bom: true, trim: true, delimiter: delimiterOf(header) }) as string[][])[0] ?? [];
  } catch (error) {
    throw validationError(
      'body',
      `Malformed CSV header: ${error instanceof Error ? error.message : String(error)}`,
      'invalid_csv',
    );
  }
  if (!columns.some((name) => name.trim().toLowerCase() === 'email')) {
    throw validationError('body', NO_EMAIL_COLUMN, 'missing_email_column');
  }
}

/**
 * An upload refused while it streamed in. The parser answers it instead of failing (fastify would then
 * close the connection under a client still sending, which may never read the answer); the route throws
 * it before validation, and the rest of the upload is drained and dropped.
 */
export class RefusedUpload {
  constructor(readonly error: unknown) {}
}

/** For the import route's preValidation: throws the reason of a refused upload. */
export function throwIfRefused(body: unknown): void {
  if (body instanceof RefusedUpload) throw body.error;
}

/**
 * Reads a CSV upload from the request stream: at most 32 MB (413) and 100,000 data rows (422), both
 * checked as the bytes arrive, so a huge file is refused after its first rows, not after it was read
 * whole; no NUL bytes (PostgreSQL cannot store them), every quote closed, an `email` column in the
 * header, at least one row. Answers the text; the rest of a refused upload is drained, not kept.
 */
export function readCsvUpload(stream: Readable): Promise<string | RefusedUpload> {
  return new Promise((resolve) => {
    const reject = (error: unknown) => resolve(new RefusedUpload(error));
    const counter = new CsvRecordCounter();
    const chunks: Buffer[] = [];
    let bytes = 0;
    let failed = false;
    const fail = (error: AppError) => {
      failed = true;
      chunks.length = 0;
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      bytes += chunk.length;
      if (bytes > CSV_UPLOAD_MAX_BYTES) return fail(new AppError('PAYLOAD_TOO_LARGE', 'A CSV upload is at most 32 MB'));
      if (chunk.includes(0))
        return fail(validationError('body', 'The file contains NUL bytes: save it as UTF-8 text', 'invalid_csv'));
      counter.push(chunk);
      if (counter.dataRows > IMPORT_MAX_ROWS)
        return fail(validationError('body', `An import holds at most ${IMPORT_MAX_ROWS} rows`, 'too_big'));
      if (counter.longest > CSV_RECORD_MAX_BYTES)
        return fail(
          validationError(
            'body',
            `A row (the header included) is at most ${CSV_RECORD_MAX_BYTES / 1024} KB`,
            'too_big',
          ),
        );
      chunks.push(chunk);
    });
    stream.once('error', (error) => {
      if (!failed) fail(new AppError('BAD_REQUEST', `The upload broke off: ${error.message}`));
    });
    stream.once('end', () => {
      if (failed) return;
      counter.end();
      const all = Buffer.concat(chunks);
      try {
        if (counter.inQuotes)
          throw validationError('body', 'Malformed CSV: a quoted field is not closed', 'invalid_csv');
        checkHeader(all.subarray(0, counter.headerEnd === -1 ? all.length : counter.headerEnd).toString('utf8'));
        if (counter.dataRows === 0) throw validationError('body', 'The import has no data rows', 'empty');
        if (counter.dataRows > IMPORT_MAX_ROWS)
          throw validationError('body', `An import holds at most ${IMPORT_MAX_ROWS} rows`, 'too_big');
      } catch (error) {
        return reject(error);
      }
      resolve(all.toString('utf8'));
    });
  });
}
