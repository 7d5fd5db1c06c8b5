/**
 * A CSV upload is checked while it streams in (a file of a million rows is refused after its first 100,000,
 * before the client has even sent the rest; a row longer than 128 KB as soon as it passes that) and parsed by the
 * import job, not on the request path.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { errorShape } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';

describe('CSV uploads stream into the import job', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ worker: true });
    auth = (await t.createProject()).auth;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  it('refuses a CSV past 100,000 rows while the upload is still open, without waiting for its end', async () => {
    const request = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/contacts/import',
      headers: { ...auth, 'content-type': 'text/csv' },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += String(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      request.on('error', reject);
    });
    // 200,000 rows of 2 bytes (a\n), and the request is never ended: a server that waited for the whole
    // file before counting would never answer, and this test would time out instead of reading the 422.
    request.write('email\n');
    for (let i = 0; i < 20; i++) request.write('a\n'.repeat(10_000));
    const res = await answered;
    expect(request.writableEnded).toBe(false);
    request.destroy();
    expect(res.status).toBe(422);
    expect(errorShape.parse(JSON.parse(res.body)).error.message).toMatch(/at most 100000 rows/);
  });

  it('refuses a header or a row longer than 128 KB (a parser would spend seconds on one huge record)', async () => {
    const upload = (csv: string) =>
      t.app.inject({
        method: 'POST',
        url: '/contacts/import',
        headers: { ...auth, 'content-type': 'text/csv' },
        payload: csv,
      });
    const wideHeader = await upload(`email,${Array.from({ length: 30_000 }, (_, i) => `c${i}`).join(',')}\na@b.test\n`);
    expect(wideHeader.statusCode).toBe(422);
    expect(errorShape.parse(wideHeader.json()).error.message).toMatch(/at most 128 KB/);
    const longRow = await upload(`email,note\na@b.test,"${'x'.repeat(200_000)}"\n`);
    expect(longRow.statusCode).toBe(422);
    const fine = await upload(`email,note\na@b.test,"${'x'.repeat(60_000)}"\n`);
    expect(fine.statusCode, fine.body).toBe(202);
  });

  it(
    'parses in the job: a malformed row deep in the file is rejected there with its ' + 'row, the others imported',
    async () => {
      const rows = Array.from({ length: 600 }, (_, i) => `row${i}@example.com,${i}`);
      rows.push('bad@example.com,"unbalanced"quote');
      const res = await t.app.inject({
        method: 'POST',
        url: '/contacts/import',
        headers: { ...auth, 'content-type': 'text/csv' },
        payload: ['email,n', ...rows].join('\n'),
      });
      expect(res.statusCode, res.body).toBe(202);
      const id = res.json().data.id as string;
      let view: {
        status: string;
        processed: number;
        created: number;
        rejected: number;
        errors: { row: number; reason: string }[];
      } = res.json().data;
      await until(
        async () => {
          if (view.status !== 'queued' && view.status !== 'processing') return true;
          view = (await t.app.inject({ method: 'GET', url: `/contacts/import/${id}`, headers: auth })).json().data;
          return false;
        },
        `import ${id} to finish`,
        30_000,
        50,
      );
      expect(view).toMatchObject({ status: 'completed', processed: 601, created: 600, rejected: 1 });
      expect(view.errors).toEqual([{ row: 601, reason: expect.stringMatching(/^Malformed CSV/) }]);
    },
  );
});
