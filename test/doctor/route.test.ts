// POST /admin/doctor, which `herald doctor` calls when a server holds the embedded database: the server checks its own
// migrations and sender domains; for the admin over loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import journal from '../../src/db/migrations/meta/_journal.json' with { type: 'json' };
import { createTestApp, type TestApp } from '../support/app.ts';
import { testDatabaseKind } from '../support/database.ts';

describe(`POST /admin/doctor (${testDatabaseKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses callers without the admin token, and callers from another machine', async () => {
    const project = await t.createProject();
    for (const headers of [{}, project.auth]) {
      const res = await t.app.inject({ method: 'POST', url: '/admin/doctor', headers });
      expect(res.statusCode).toBe(401);
    }
    const remote = await t.app.inject({
      method: 'POST',
      url: '/admin/doctor',
      headers: t.admin,
      remoteAddress: '192.0.2.7',
    });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().error.code).toBe('FORBIDDEN');
  });

  it('answers the migrations row and a row per sender domain to check', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/doctor', headers: t.admin });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.rows as { status: string; name: string; detail: string }[];
    expect(rows[0]).toMatchObject({ status: 'OK', name: 'migrations' });
    expect(rows[0]!.detail).toContain(`all ${journal.entries.length} applied`);
    expect(rows[1]).toMatchObject({ status: 'OK', name: 'domains', detail: 'no verified sender domain to check' });
  });
});
