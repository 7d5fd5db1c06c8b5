/**
 * The API types of the dashboard and of the typed client (sdk/) are generated from the OpenAPI document the server
 * serves: regenerated here in memory from `/openapi.json` of an app on the test database, they must equal the
 * committed files, so a change to a server schema that the dashboard or the client has not caught up with fails here
 * (and `tsc` shows what it breaks).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TYPES_FILES, REGENERATE_COMMAND, apiTypesOf } from '../../../build/api-types.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { openApiDocument } from '../../support/openapi.ts';

/** The first line where two texts differ (1-based), or 0 when they are equal. */
function firstDifference(a: string, b: string): number {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) if (left[i] !== right[i]) return i + 1;
  return 0;
}

describe('the generated API types', () => {
  let t: TestApp;
  let generated: string;

  beforeAll(async () => {
    t = await createTestApp();
    generated = await apiTypesOf(await openApiDocument(t.app));
  });
  afterAll(() => t.close());

  it.each(API_TYPES_FILES.map((absolute) => [path.relative(process.cwd(), absolute), absolute]))(
    '%s is what the server’s OpenAPI document gives',
    (file, absolute) => {
      const committed = fs.existsSync(absolute) ? fs.readFileSync(absolute, 'utf8') : '';
      const line = firstDifference(committed, generated);
      expect(
        line,
        `${file} is out of date with the server's OpenAPI document (first difference at line ${line}): ` +
          `run \`${REGENERATE_COMMAND}\` and commit the file`,
      ).toBe(0);
    },
  );
});
