import { describe, expect, it } from 'vitest';
import { previewCsv } from './csv-preview.ts';

describe('previewCsv', () => {
  it('reads columns, counts data rows and keeps the first ones, quotes included', () => {
    const p = previewCsv(
      '\uFEFFemail,name\r\na@x.test,"Ann, Jr."\r\n\r\nb@x.test,"say ""hi""\nthere"\nc@x.test,C\n',
      2,
    );
    expect(p).toEqual({
      columns: ['email', 'name'],
      rows: 3,
      first: [
        ['a@x.test', 'Ann, Jr.'],
        ['b@x.test', 'say "hi"\nthere'],
      ],
      hasEmailColumn: true,
    });
  });
  it('finds a semicolon-separated header and a missing email column', () => {
    expect(previewCsv('Email;city\nx@y.test;Oslo').hasEmailColumn).toBe(true);
    expect(previewCsv('name,plan\nAda,pro')).toMatchObject({ hasEmailColumn: false, rows: 1 });
  });
});
