/**
 * The OpenAPI document as a product: Redocly's linter with its recommended rules finds nothing (the two
 * exceptions in .redocly.lint-ignore.yaml say why), and every operation has a summary and an operationId.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/paths.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { openApiDocument, operationsOf, type OpenApiDocument } from '../../support/openapi.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const redocly = path.join(repoRoot, 'node_modules/@redocly/cli/bin/cli.js');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    doc = await openApiDocument(t.app);
  });
  afterAll(() => t.close());

  it('passes `redocly lint` with the recommended rules', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-openapi-'));
    try {
      fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
      fs.copyFileSync(path.join(here, '.redocly.lint-ignore.yaml'), path.join(dir, '.redocly.lint-ignore.yaml'));
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [redocly, 'lint', 'openapi.json', '--format=json'],
        { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number; ignored: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 11 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names every operation, documents the statuses the plugins give, and no localhost server', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(50);
    for (const op of operations) {
      expect(op.summary, `${op.method} ${op.path}`).toBeTruthy();
      expect(op.operationId, `${op.method} ${op.path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(Object.keys(op.responses), `${op.method} ${op.path}`).toEqual(expect.arrayContaining(['500', '503']));
      for (const [status, response] of Object.entries(op.responses))
        expect(response.description, `${op.method} ${op.path} ${status}`).not.toBe('Default Response');
      if (op.method !== 'GET')
        expect(Object.keys(op.responses), `${op.method} ${op.path}`).toEqual(expect.arrayContaining(['413', '415']));
    }
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
    expect(JSON.stringify(doc.servers)).not.toContain('localhost');
    expect(doc.paths['/t/c/{token}']!.get!.responses).toHaveProperty('302');
    expect(doc.paths['/campaigns/{id}/send']!.post!.requestBody?.required).toBe(false);
  });
});
