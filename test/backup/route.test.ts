// POST /admin/backup, which `herald backup` calls when a server holds the embedded database: the admin token only,
// a JSON line (schema state and the secrets) then the data folder's tar; on PostgreSQL a 409 saying the command needs
// no server there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import journal from '../../src/db/migrations/meta/_journal.json' with { type: 'json' };
import { ADMIN_TOKEN, APP_SECRET, createTestApp, type TestApp } from '../support/app.ts';
import { testDatabaseKind } from '../support/database.ts';

describe(`POST /admin/backup (${testDatabaseKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses callers without the admin token', async () => {
    const project = await t.createProject();
    for (const headers of [{}, project.auth]) {
      const res = await t.app.inject({ method: 'POST', url: '/admin/backup', headers });
      expect(res.statusCode).toBe(401);
    }
  });

  it.runIf(testDatabaseKind === 'pglite')('answers the schema state and secrets, then the tar', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/backup', headers: t.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.rawPayload;
    const end = body.indexOf(10);
    expect(JSON.parse(body.subarray(0, end).toString())).toEqual({
      schema: { migrations: journal.entries.length, last: journal.entries.at(-1)!.when },
      appSecret: APP_SECRET,
      adminToken: ADMIN_TOKEN,
    });
    // A tar: its first header's magic at byte 257.
    expect(body.subarray(end + 1 + 257, end + 1 + 262).toString()).toBe('ustar');
  });

  it.runIf(testDatabaseKind === 'postgres')('says herald backup dumps PostgreSQL itself', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/backup', headers: t.admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.suggestion).toMatch(/pg_dump/);
  });
});
