// Reading DMARC aggregate reports (RFC 7489, XML) and TLS reports (RFC 8460, JSON) as mail brings them: plain, gzip
// or zip, on a receive thread (its CPU off the event loop, its memory inside the thread's heap limit). Everything
// here is hostile input: a compressed file is expanded only up to MAX_EXPANDED_BYTES (never further), a zip holds at
// most MAX_ZIP_FILES files with plain relative names, XML with a DOCTYPE or entity declarations is refused before
// any parsing, and the records of a report are read a slice at a time and kept aggregated by source and results, at
// most MAX_SOURCE_ROWS rows (the rest folded into rows without an IP).
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import yauzl from 'yauzl';
import type { PublishedPolicy, TlsReportPolicy } from '../../db/schema/reports.ts';

/** The most bytes a compressed report file may expand to, and the most files a zip may hold. */
export const MAX_EXPANDED_BYTES = 10 * 1024 * 1024;
export const MAX_ZIP_FILES = 10;
/** The rows kept of one DMARC report: the largest sources; the rest are folded by results into rows with no IP. */
export const MAX_SOURCE_ROWS = 500;
/** Records parsed at once: a slice of the document, so a large report never becomes one large object tree. */
const RECORDS_PER_SLICE = 1000;
const MAX_POLICIES = 20;
const MAX_FAILURES = 50;
const MAX_COUNT = 1_000_000_000;

export type RefusalReason = 'too_large' | 'too_many_files' | 'unsafe_name' | 'entities' | 'not_a_report';

/** A report refused for `reason`; `message` says why in words the sending server's postmaster can act on. */
export class ReportRefused extends Error {
  constructor(
    readonly reason: RefusalReason | 'wrong_domain',
    message: string,
  ) {
    super(message);
  }
}

/** The reports of a message as the receive thread answers them: every one read, or why the message is refused. */
export type ReportsRead =
  | { ok: true; dmarc: DmarcReport[]; tls: TlsReport[] }
  | { ok: false; reason: RefusalReason; message: string };

/** The reports in a message's files (its attachments, or its body when it has none), each unpacked and parsed. */
export async function readReports(files: Uint8Array[]): Promise<ReportsRead> {
  const found = { ok: true as const, dmarc: [] as DmarcReport[], tls: [] as TlsReport[] };
  try {
    for (const file of files) {
      const content = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
      for (const document of await unpackReportFile(content)) {
        const kind = reportKindOf(document);
        if (kind === 'dmarc') found.dmarc.push(parseDmarcReport(document));
        else if (kind === 'tls') found.tls.push(parseTlsReport(document));
      }
    }
  } catch (error) {
    if (error instanceof ReportRefused && error.reason !== 'wrong_domain')
      return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
  if (found.dmarc.length + found.tls.length === 0)
    return { ok: false, reason: 'not_a_report', message: 'no DMARC (XML) or TLS (JSON) report in the message' };
  return found;
}

const tooLarge = () =>
  new ReportRefused('too_large', `a report file expands past ${MAX_EXPANDED_BYTES / 1024 / 1024} MB`);

/** A gzip member expanded, refused once its output would pass the limit (zlib stops there). */
async function gunzipCapped(content: Buffer): Promise<Buffer> {
  try {
    return await promisify(gunzip)(content, { maxOutputLength: MAX_EXPANDED_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new ReportRefused('not_a_report', 'a gzip file could not be read');
  }
}

/** A zip entry name that stays inside the archive: relative, no `..`, no drive letter, no backslash. */
function safeEntryName(name: string): boolean {
  if (name.startsWith('/') || name.includes('\\') || /^[a-z]:/i.test(name) || name.includes('\0')) return false;
  return !name.split('/').some((part) => part === '..');
}

/** The files of a zip, read one at a time, each counted as it inflates against what is left of the limit. */
function unzipCapped(content: Buffer): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    // yauzl checks names itself too (decodeStrings) and that each entry inflates to its declared size.
    yauzl.fromBuffer(content, { lazyEntries: true, validateEntrySizes: true }, (openError, zip) => {
      if (openError || !zip) return reject(new ReportRefused('not_a_report', 'a zip file could not be read'));
      if (zip.entryCount > MAX_ZIP_FILES) {
        zip.close();
        return reject(new ReportRefused('too_many_files', `a zip file holds more than ${MAX_ZIP_FILES} files`));
      }
      const files: Buffer[] = [];
      let left = MAX_EXPANDED_BYTES;
      const fail = (error: ReportRefused) => {
        zip.close();
        reject(error);
      };
      zip.on('error', (error: Error) =>
        reject(
          /relative path|absolute path|invalid characters/i.test(error.message)
            ? new ReportRefused('unsafe_name', 'a zip entry has a name outside the archive')
            : new ReportRefused('not_a_report', 'a zip file could not be read'),
        ),
      );
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!safeEntryName(entry.fileName))
          return fail(new ReportRefused('unsafe_name', 'a zip entry has a name outside the archive'));
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        if (entry.uncompressedSize > left) return fail(tooLarge());
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail(new ReportRefused('not_a_report', 'a zip entry could not be read'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => {
            left -= chunk.length;
            if (left < 0) {
              stream.destroy();
              return fail(tooLarge());
            }
            chunks.push(chunk);
          });
          stream.on('error', () => fail(new ReportRefused('not_a_report', 'a zip entry could not be read')));
          stream.on('end', () => {
            files.push(Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The report documents in one attached file: itself, its gzip content, or the files of its zip. */
export async function unpackReportFile(content: Buffer): Promise<Buffer[]> {
  if (content[0] === 0x1f && content[1] === 0x8b) return [await gunzipCapped(content)];
  if (content[0] === 0x50 && content[1] === 0x4b) return unzipCapped(content);
  return [content];
}

/** What a report document is, from its first non-blank character: XML (DMARC) or JSON (TLS), else neither. */
export function reportKindOf(document: Buffer | string): 'dmarc' | 'tls' | null {
  const head = (typeof document === 'string' ? document.slice(0, 512) : document.subarray(0, 512).toString('utf8'))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<') ? 'dmarc' : head.startsWith('{') ? 'tls' : null;
}

// ---------------------------------------------------------------------------------------------------------------
// DMARC aggregate reports

/** One aggregated row: a source IP (null: folded sources) with its policy results and its message count. */
export interface DmarcRow {
  sourceIp: string | null;
  count: number;
  disposition: string;
  dkim: string;
  spf: string;
  /** DKIM passed with a signature of the report's domain itself (d= the domain). */
  dkimOwn: boolean;
}

export interface DmarcReport {
  orgName: string;
  email: string | null;
  reportId: string;
  beginAt: Date;
  endAt: Date;
  domain: string;
  policy: PublishedPolicy;
  messages: number;
  passed: number;
  records: number;
  folded: boolean;
  rows: DmarcRow[];
}

const parser = new XMLParser({
  // Entities are never expanded (a DOCTYPE is refused before parsing anyway) and values stay strings ("1.10").
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: true,
  parseTagValue: false,
  removeNSPrefix: true,
  trimValues: true,
});

/** Text as stored: no NUL (PostgreSQL refuses it), at most `max` characters. */
function clean(value: unknown, max = 200): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).replaceAll('\0', '').slice(0, max) : '';
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const objectOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A count in a report: a non-negative integer, capped (a report cannot make a total overflow). */
function countOf(value: unknown): number {
  const n = Number(clean(value, 20));
  return Number.isSafeInteger(n) && n > 0 ? Math.min(n, MAX_COUNT) : 0;
}

/** A date of a report: UNIX seconds (DMARC) or an RFC 3339 time (TLS), between 1970 and 9999. */
function dateOf(value: unknown, seconds: boolean): Date {
  const text = clean(value, 40);
  const date = seconds ? new Date(Number(text) * 1000) : new Date(text);
  const year = date.getUTCFullYear();
  if (text === '' || Number.isNaN(date.getTime()) || year < 1970 || year > 9999)
    throw new ReportRefused('not_a_report', 'a report has no valid date range');
  return date;
}

function parseXml(text: string): Record<string, unknown> {
  try {
    return objectOf(parser.parse(text));
  } catch {
    throw new ReportRefused('not_a_report', 'a report is not well-formed XML');
  }
}

const RECORD_START = /<(?:[\w.-]+:)?record[\s>]/g;
const RECORD_END = /<\/(?:[\w.-]+:)?record\s*>/g;

/** The records' part of the document (from `start`), a slice of up to RECORDS_PER_SLICE records at a time. */
function* recordSlices(text: string, start: number): Generator<string> {
  const ends = new RegExp(RECORD_END.source, 'g');
  ends.lastIndex = start;
  let from = start;
  for (;;) {
    let end = -1;
    for (let i = 0; i < RECORDS_PER_SLICE; i++) {
      const match = ends.exec(text);
      if (!match) break;
      end = match.index + match[0].length;
    }
    if (end < 0) return;
    yield text.slice(from, end);
    from = end;
    // A search that found nothing starts over at 0: go on from where this slice ended.
    ends.lastIndex = end;
  }
}

/** The policy results of one record (disposition, DKIM and SPF verdicts) as the aggregation key's parts. */
function resultsOf(record: Record<string, unknown>, domain: string) {
  const row = objectOf(record.row);
  const evaluated = objectOf(row.policy_evaluated);
  const auth = objectOf(record.auth_results);
  const dkimOwn = listOf(auth.dkim).some((entry) => {
    const dkim = objectOf(entry);
    return clean(dkim.result).toLowerCase() === 'pass' && clean(dkim.domain).toLowerCase() === domain;
  });
  return {
    sourceIp: clean(row.source_ip, 64) || null,
    count: countOf(row.count),
    disposition: clean(evaluated.disposition, 20).toLowerCase() || 'none',
    dkim: clean(evaluated.dkim, 20).toLowerCase() || 'none',
    spf: clean(evaluated.spf, 20).toLowerCase() || 'none',
    dkimOwn,
  };
}

/** Passed DMARC: aligned DKIM or aligned SPF passed. */
export const passedDmarc = (row: Pick<DmarcRow, 'dkim' | 'spf'>) => row.dkim === 'pass' || row.spf === 'pass';

/** The largest MAX_SOURCE_ROWS rows as they are, the rest summed by results into rows with no source IP. */
function capRows(rows: DmarcRow[]): { rows: DmarcRow[]; folded: boolean } {
  if (rows.length <= MAX_SOURCE_ROWS) return { rows, folded: false };
  const sorted = [...rows].sort((a, b) => b.count - a.count);
  const folded = new Map<string, DmarcRow>();
  for (const row of sorted.slice(MAX_SOURCE_ROWS)) {
    const key = `${row.disposition} ${row.dkim} ${row.spf} ${row.dkimOwn}`;
    const into = folded.get(key);
    if (into) into.count = Math.min(into.count + row.count, MAX_COUNT);
    else folded.set(key, { ...row, sourceIp: null });
  }
  return { rows: [...sorted.slice(0, MAX_SOURCE_ROWS), ...folded.values()], folded: true };
}

/** A DMARC aggregate report from its XML; refused when it declares a DOCTYPE or entities, or is not a report. */
export function parseDmarcReport(document: Buffer | string): DmarcReport {
  const text = (typeof document === 'string' ? document : document.toString('utf8')).replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new ReportRefused('entities', 'a report declares a DOCTYPE or entities, which are never expanded');
  RECORD_START.lastIndex = 0;
  const first = RECORD_START.exec(text);
  const recordsAt = first ? first.index : text.length;
  RECORD_END.lastIndex = recordsAt;
  let lastEnd = recordsAt;
  for (let m = RECORD_END.exec(text); m; m = RECORD_END.exec(text)) lastEnd = m.index + m[0].length;
  const feedback = objectOf(parseXml(text.slice(0, recordsAt) + text.slice(lastEnd)).feedback);
  const metadata = objectOf(feedback.report_metadata);
  const published = objectOf(feedback.policy_published);
  const range = objectOf(metadata.date_range);
  const domain = clean(published.domain, 253).toLowerCase().replace(/\.$/, '');
  const orgName = clean(metadata.org_name);
  const reportId = clean(metadata.report_id);
  if (!domain || !orgName || !reportId)
    throw new ReportRefused('not_a_report', 'not a DMARC aggregate report (no org_name, report_id or domain)');
  const pct = countOf(published.pct);
  const report = {
    orgName,
    email: clean(metadata.email, 320) || null,
    reportId,
    beginAt: dateOf(range.begin, true),
    endAt: dateOf(range.end, true),
    domain,
    policy: {
      p: clean(published.p, 20) || null,
      sp: clean(published.sp, 20) || null,
      adkim: clean(published.adkim, 5) || null,
      aspf: clean(published.aspf, 5) || null,
      pct: clean(published.pct) === '' ? null : Math.min(pct, 100),
    },
  };
  const byKey = new Map<string, DmarcRow>();
  let messages = 0;
  let passed = 0;
  let records = 0;
  for (const slice of recordSlices(text.slice(0, lastEnd), recordsAt)) {
    for (const entry of listOf(objectOf(parseXml(`<r>${slice}</r>`).r).record)) {
      const row = resultsOf(objectOf(entry), domain);
      records++;
      messages = Math.min(messages + row.count, MAX_COUNT);
      if (passedDmarc(row)) passed = Math.min(passed + row.count, MAX_COUNT);
      const key = `${row.sourceIp} ${row.disposition} ${row.dkim} ${row.spf} ${row.dkimOwn}`;
      const into = byKey.get(key);
      if (into) into.count = Math.min(into.count + row.count, MAX_COUNT);
      else byKey.set(key, row);
    }
  }
  return { ...report, messages, passed, records, ...capRows([...byKey.values()]) };
}

// ---------------------------------------------------------------------------------------------------------------
// TLS reports

export interface TlsReport {
  orgName: string;
  reportId: string;
  contact: string | null;
  beginAt: Date;
  endAt: Date;
  /** The policy domains the report covers (each must be the domain whose address it came to). */
  domains: string[];
  successful: number;
  failed: number;
  policies: TlsReportPolicy[];
}

/** A TLS report from its JSON: the organisation, the period, and per policy its session counts and failures. */
export function parseTlsReport(document: Buffer | string): TlsReport {
  let json: Record<string, unknown>;
  try {
    json = objectOf(JSON.parse(typeof document === 'string' ? document : document.toString('utf8')));
  } catch {
    throw new ReportRefused('not_a_report', 'a TLS report is not valid JSON');
  }
  const range = objectOf(json['date-range']);
  const orgName = clean(json['organization-name']);
  const reportId = clean(json['report-id']);
  if (!orgName || !reportId)
    throw new ReportRefused('not_a_report', 'not a TLS report (no organization-name or report-id)');
  const policies = listOf(json.policies).map((entry): TlsReportPolicy => {
    const item = objectOf(entry);
    const policy = objectOf(item.policy);
    const summary = objectOf(item.summary);
    return {
      policyType: clean(policy['policy-type'], 40) || 'no-policy-found',
      policyDomain: clean(policy['policy-domain'], 253).toLowerCase().replace(/\.$/, ''),
      mxHosts: listOf(policy['mx-host'])
        .slice(0, 20)
        .map((host) => clean(host, 253)),
      successful: countOf(summary['total-successful-session-count']),
      failed: countOf(summary['total-failure-session-count']),
      failures: listOf(item['failure-details'])
        .slice(0, MAX_FAILURES)
        .map((detail) => {
          const d = objectOf(detail);
          return {
            resultType: clean(d['result-type'], 60) || 'unknown',
            sendingMtaIp: clean(d['sending-mta-ip'], 64) || null,
            receivingMxHostname: clean(d['receiving-mx-hostname'], 253) || null,
            failedSessions: countOf(d['failed-session-count']),
            additionalInformation: clean(d['additional-information'], 500) || null,
          };
        }),
    };
  });
  if (policies.length === 0) throw new ReportRefused('not_a_report', 'a TLS report without policies');
  return {
    orgName,
    reportId,
    contact: clean(json['contact-info'], 320) || null,
    beginAt: dateOf(range['start-datetime'], false),
    endAt: dateOf(range['end-datetime'], false),
    domains: [...new Set(policies.map((p) => p.policyDomain))],
    successful: Math.min(
      policies.reduce((n, p) => n + p.successful, 0),
      MAX_COUNT,
    ),
    failed: Math.min(
      policies.reduce((n, p) => n + p.failed, 0),
      MAX_COUNT,
    ),
    policies: policies.slice(0, MAX_POLICIES),
  };
}
