import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';

const html = { accept: 'text/html,application/xhtml+xml' };

describe('the dashboard served by the API process', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-web-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Herald</title><div id="root"></div>');
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
    t = await createTestApp({ dashboardDir: dir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at / and for client-side routes, never cached', async () => {
    for (const url of ['/', '/app', '/app/contacts/0190-some-id', '/index.html']) {
      const res = await t.app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable files', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe('console.log("app")');
    expectError(await t.app.inject({ url: '/assets/missing.js', headers: html }), 404, 'NOT_FOUND');
  });

  it('keeps the API first: its routes answer JSON even to a browser asking for HTML', async () => {
    expectError(await t.app.inject({ url: '/contacts', headers: html }), 401, 'UNAUTHORIZED');
    const project = await t.createProject();
    const list = await t.app.inject({ url: '/contacts', headers: { ...html, ...project.auth } });
    expect(list.statusCode).toBe(200);
    expect(list.json().success).toBe(true);
    expect((await t.app.inject({ url: '/healthz', headers: html })).headers['content-type']).toMatch(/json/);
  });

  it('answers the JSON 404 envelope under API paths, and to clients that do not ask for HTML', async () => {
    expectError(await t.app.inject({ url: '/contacts/a/b', headers: html }), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ url: '/v1/nothing-here', headers: html }), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ url: '/admin/nothing', headers: html }), 404, 'NOT_FOUND');
    expectError(
      await t.app.inject({ url: '/no-such-page', headers: { accept: 'application/json' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await t.app.inject({ url: '/no-such-page' }), 404, 'NOT_FOUND');
    expectError(
      await t.app.inject({ method: 'POST', url: '/app/contacts', headers: html, payload: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('keeps the catch-all out of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.includes('*') || p.startsWith('/assets'))).toEqual([]);
  });
});

describe('the dashboard before it is built', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dashboardDir: path.join(os.tmpdir(), 'herald-no-such-build') });
  });
  afterAll(() => t.close());

  it('says how to build it at / and on its pages, while the API works', async () => {
    for (const url of ['/', '/app/campaigns']) {
      const res = await t.app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('npm run build:web');
    }
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
