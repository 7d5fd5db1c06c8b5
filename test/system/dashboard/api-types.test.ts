/**
 * The dashboard's API types are generated from the OpenAPI document the server serves: regenerated here in
 * memory from `/openapi.json` of an app on the test database, they must equal the committed file, so a change
 * to a server schema that the dashboard has not caught up with fails here (and `tsc` shows what it breaks).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TYPES_FILE, REGENERATE_COMMAND, apiTypesOf } from '../../../build/api-types.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { openApiDocument } from '../../support/openapi.ts';

/** The first line where two texts differ (1-based), or 0 when they are equal. */
function firstDifference(a: string, b: string): number {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) if (left[i] !== right[i]) return i + 1;
  return 0;
}

describe('the dashboard’s API types', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are what the server’s OpenAPI document gives', async () => {
    const generated = await apiTypesOf(await openApiDocument(t.app));
    const file = path.relative(process.cwd(), API_TYPES_FILE);
    const committed = fs.existsSync(API_TYPES_FILE) ? fs.readFileSync(API_TYPES_FILE, 'utf8') : '';
    const line = firstDifference(committed, generated);
    expect(
      line,
      `${file} is out of date with the server's OpenAPI document (first difference at line ${line}): ` +
        `run \`${REGENERATE_COMMAND}\` and commit the file`,
    ).toBe(0);
  });
});
