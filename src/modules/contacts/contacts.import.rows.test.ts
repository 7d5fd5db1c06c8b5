import { describe, expect, it } from 'vitest';
import { foldDuplicates, importCandidates, validateImportRow, type ImportFormat } from './contacts.import.rows.ts';

const parseImportSource = async (format: ImportFormat, source: string) => {
  const rows = [];
  for await (const row of importCandidates(format, source)) rows.push(row);
  return rows;
};

describe('importCandidates', () => {
  it('maps CSV cells to email, subscribed and data by the header, skipping empty cells', async () => {
    expect(await parseImportSource('csv', 'EMAIL, Subscribed ,Name,\na@x.io,yes,Ann,\n\nb@x.io,,,ignored\n')).toEqual([
      { value: { email: 'a@x.io', subscribed: 'yes', data: { Name: 'Ann' } } },
      { value: { email: 'b@x.io', data: {} } },
    ]);
  });

  it('marks rows with more cells than the header, and reads quoted cells with commas and newlines', async () => {
    expect(await parseImportSource('csv', 'email,note\na@x.io,"one, two\nthree"\nb@x.io,1,2\n')).toEqual([
      { value: { email: 'a@x.io', data: { note: 'one, two\nthree' } } },
      { error: 'has 3 columns, the header has 2' },
    ]);
  });

  it('detects tab and semicolon separators from the header line', async () => {
    expect(await parseImportSource('csv', 'email\tcity\na@x.io\tRome')).toEqual([
      { value: { email: 'a@x.io', data: { city: 'Rome' } } },
    ]);
    expect(await parseImportSource('csv', 'email;city\na@x.io;Rome')).toEqual([
      { value: { email: 'a@x.io', data: { city: 'Rome' } } },
    ]);
  });

  it('stops at a file without an email column; a record the parser refuses is a row with its reason', async () => {
    await expect(parseImportSource('csv', 'name\nAnn')).rejects.toThrow(/email/);
    expect(await parseImportSource('csv', 'email\n"a@x.io')).toEqual([
      { error: expect.stringMatching(/^Malformed CSV/) },
    ]);
    expect(await parseImportSource('csv', 'email,n\na@x.io,"1"x\nb@x.io,2')).toEqual([
      { error: expect.stringMatching(/^Malformed CSV/) },
      { value: { email: 'b@x.io', data: { n: '2' } } },
    ]);
    expect(await parseImportSource('csv', 'email\n')).toEqual([]);
  });
});

describe('validateImportRow', () => {
  it('normalises the email and reads CSV booleans', () => {
    expect(validateImportRow({ value: { email: ' A@X.io ', subscribed: 'No', data: { n: '1' } } }, 'csv')).toEqual({
      ok: { email: 'a@x.io', subscribed: false, defaultSubscribed: true, patch: { n: '1' } },
    });
    expect(validateImportRow({ value: { email: 'a@x.io', subscribed: 'perhaps', data: {} } }, 'csv')).toEqual({
      email: 'a@x.io',
      reason: 'subscribed: expected true or false',
    });
  });

  it('takes JSON values as given and reports the first problem', () => {
    expect(validateImportRow({ value: { email: 'a@x.io', subscribed: 'No' } }, 'json')).toMatchObject({
      reason: expect.stringMatching(/^subscribed: /),
    });
    expect(validateImportRow({ value: 7 }, 'json')).toMatchObject({
      reason: expect.stringMatching(/^expected an object with an email/),
    });
    expect(validateImportRow({ error: 'has 3 columns' }, 'csv')).toEqual({ reason: 'has 3 columns' });
  });
});

describe('foldDuplicates', () => {
  it('folds rows of one email in file order, later values winning', () => {
    const row = (n: number, email: string, subscribed?: boolean, patch?: Record<string, unknown>) => ({
      row: n,
      ok: { email, subscribed, defaultSubscribed: true, patch },
    });
    expect(
      foldDuplicates([
        row(1, 'a@x.io', false, { a: 1, b: 1 }),
        row(2, 'b@x.io'),
        row(3, 'a@x.io', undefined, { b: null }),
      ]),
    ).toEqual([
      {
        row: 3,
        rows: 2,
        ok: { email: 'a@x.io', subscribed: false, defaultSubscribed: true, patch: { a: 1, b: null } },
      },
      { row: 2, rows: 1, ok: { email: 'b@x.io', subscribed: undefined, defaultSubscribed: true, patch: undefined } },
    ]);
  });
});
