import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionKeysCleanupJob } from '../../../src/modules/projects/projects.jobs.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

describe('key names and dashboard session keys', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Keys');
  });
  afterAll(() => t.close());

  const createKey = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/admin/projects/${project.id}/keys`, headers: t.admin, payload });
  const listKeys = async () =>
    (await t.app.inject({ method: 'GET', url: `/admin/projects/${project.id}/keys`, headers: t.admin })).json().data
      .items as { id: string; name: string; session: boolean; lastUsedAt: string | null; revokedAt: string | null }[];
  const contacts = (key: string) =>
    t.app.inject({ method: 'GET', url: '/contacts', headers: { authorization: `Bearer ${key}` } });
  const leave = (key: string) =>
    t.app.inject({ method: 'DELETE', url: '/api-keys/current', headers: { authorization: `Bearer ${key}` } });
  /** Pretends a key was last used 13 hours ago, and drops the auth cache as a new process would. */
  const idle = async (id: string) => {
    await t.ctx.db.execute(
      sql`UPDATE api_keys SET last_used_at = now() - interval '13 hours', created_at = now() - interval '13 hours'
        WHERE id = ${id}::uuid`,
    );
    await t.app.inject({ method: 'PATCH', url: `/admin/projects/${project.id}`, headers: t.admin, payload: {} });
  };

  it("names keys: a given name, or a default by type for the project's first keys", async () => {
    const res = await createKey({ type: 'secret', name: 'Billing server' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Billing server', type: 'secret', session: false });
    const keys = await listKeys();
    expect(keys.map((k) => k.name).sort()).toEqual(['Billing server', 'Public key', 'Secret key']);
    expect(keys.every((k) => k.session === false)).toBe(true);
  });

  it.each([
    ['an empty name', { type: 'secret', name: '  ' }],
    ['a name with a control character', { type: 'secret', name: 'a\u0000b' }],
    ['a session flag that is no boolean', { type: 'secret', session: 'yes' }],
  ])('refuses %s with 422', async (_label, payload) => {
    const res = await createKey(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().success).toBe(false);
  });

  it('marks a session key as one and records when a key was last used', async () => {
    const created = (await createKey({ type: 'secret', name: 'Dashboard session', session: true })).json().data;
    expect(created.session).toBe(true);
    expect((await listKeys()).find((k) => k.id === created.id)?.lastUsedAt).toBeNull();
    expect((await contacts(created.key)).statusCode).toBe(200);
    const listed = (await listKeys()).find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({ session: true, name: 'Dashboard session' });
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('refuses a session key idle for more than 12 hours with 401, and the clean-up deletes it', async () => {
    const session = (await createKey({ type: 'secret', session: true })).json().data;
    const plain = (await createKey({ type: 'secret' })).json().data;
    await idle(session.id);
    await idle(plain.id);
    const refused = await contacts(session.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('UNAUTHORIZED');
    expect((await contacts(plain.key)).statusCode).toBe(200);
    await sessionKeysCleanupJob.handler({}, t.ctx, { id: 'manual', retryCount: 0, retryLimit: 0 });
    const ids = (await listKeys()).map((k) => k.id);
    expect(ids).not.toContain(session.id);
    expect(ids).toContain(plain.id);
  });

  it('lets a session key revoke itself when the dashboard leaves, at once', async () => {
    const session = (await createKey({ type: 'secret', session: true })).json().data;
    expect((await contacts(session.key)).statusCode).toBe(200);
    const res = await leave(session.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id: session.id, deleted: true } });
    expect((await contacts(session.key)).statusCode).toBe(401);
    expect((await leave(session.key)).statusCode).toBe(401);
  });

  it('answers the calling key with its project (GET /api-keys/current), never for a public key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api-keys/current', headers: project.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Secret key',
      type: 'secret',
      session: false,
      project: { id: project.id, name: 'Keys' },
    });
    expect(res.json().data.key).toBeUndefined();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api-keys/current',
          headers: { authorization: `Bearer ${project.publicKey}` },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('refuses to let any other key revoke itself that way (403), and the key keeps working', async () => {
    const res = await leave(project.secretKey);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect((await contacts(project.secretKey)).statusCode).toBe(200);
    expect((await leave(project.publicKey)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: '/api-keys/current' })).statusCode).toBe(401);
  });
});
