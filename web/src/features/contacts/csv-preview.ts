// What the import form shows of a chosen CSV file before it is sent: its columns, its row count and its first
// rows. A light reading (the server parses the file for real); enough to catch a file with no email column.

export interface CsvPreview {
  columns: string[];
  /** Data rows (records after the header). */
  rows: number;
  /** The first few data rows, cell by cell. */
  first: string[][];
  hasEmailColumn: boolean;
}

/** The records of a CSV text with quoted fields (quotes may hold delimiters, doubled quotes and line breaks). */
function records(text: string, delimiter: string): string[][] {
  const out: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      record.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(cell);
      if (record.some((v) => v.trim() !== '')) out.push(record);
      record = [];
      cell = '';
    } else cell += c;
  }
  record.push(cell);
  if (record.some((v) => v.trim() !== '')) out.push(record);
  return out;
}

/** Reads a CSV as the server does: a header row, `,` else `;` else a tab between cells, a leading BOM ignored. */
export function previewCsv(text: string, firstRows = 5): CsvPreview {
  const body = text.replace(/^\uFEFF/, '');
  const headerLine = body.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = headerLine.includes(',')
    ? ','
    : headerLine.includes(';')
      ? ';'
      : headerLine.includes('\t')
        ? '\t'
        : ',';
  const [header = [], ...rest] = records(body, delimiter);
  const columns = header.map((c) => c.trim());
  return {
    columns,
    rows: rest.length,
    first: rest.slice(0, firstRows),
    hasEmailColumn: columns.some((c) => c.toLowerCase() === 'email'),
  };
}
