// How doctor's rows are shown: a table for people (a fix line under each WARN and FAIL), or JSON for scripts.
import type { CheckRow } from './rows.ts';

/** The rows as a table: status, check, detail; then a count of each status. */
export function formatTable(rows: readonly CheckRow[]): string {
  const nameWidth = Math.max('CHECK'.length, ...rows.map((row) => row.name.length));
  const line = (status: string, name: string, detail: string) =>
    `${status.padEnd(8)}${name.padEnd(nameWidth + 2)}${detail}`;
  const indent = ' '.repeat(8 + nameWidth + 2);
  const out = [line('STATUS', 'CHECK', 'DETAIL')];
  for (const row of rows) {
    out.push(line(row.status, row.name, row.detail));
    for (const fix of row.fix?.split('\n') ?? []) out.push(`${indent}fix: ${fix}`);
  }
  const count = (status: CheckRow['status']) => rows.filter((row) => row.status === status).length;
  out.push('', `${count('OK')} OK, ${count('WARN')} WARN, ${count('FAIL')} FAIL`);
  return out.join('\n') + '\n';
}

/** The rows as JSON: an array of {status, name, detail, fix?}. */
export function formatJson(rows: readonly CheckRow[]): string {
  return JSON.stringify(rows, null, 2) + '\n';
}
