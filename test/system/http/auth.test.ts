import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';

describe('authentication', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp({
      register: (app) => {
        app.get('/test/secret', { config: { auth: 'secret' } }, async (request) => ({
          success: true,
          data: { projectId: request.auth?.projectId },
        }));
        app.post('/test/public', { config: { auth: 'public' } }, async (request) => ({
          success: true,
          data: { projectId: request.auth?.projectId },
        }));
      },
    });
    project = await t.createProject('Auth');
  });
  afterAll(() => t.close());

  const call = (url: string, authorization?: string, method: 'GET' | 'POST' = 'GET') =>
    t.app.inject({
      method,
      url,
      headers: authorization === undefined ? {} : { authorization },
      ...(method === 'POST' ? { payload: {} } : {}),
    });

  it.each([
    ['no header', undefined],
    ['a malformed header', 'Token abc'],
    ['a bearer that is no key', 'Bearer hello'],
    ['an unknown secret key', 'Bearer sk_doesnotexist000000000000000000'],
    ['an unknown public key', 'Bearer pk_doesnotexist000000000000000000'],
  ])('answers 401 UNAUTHORIZED for %s', async (_label, header) => {
    const res = await call('/test/secret', header);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
  });

  it('lets a secret key in and derives the project from it', async () => {
    const res = await call('/test/secret', `Bearer ${project.secretKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.projectId).toBe(project.id);
  });

  it('answers 403 FORBIDDEN for a public key on a secret route, and lets it in on a public one', async () => {
    const denied = await call('/test/secret', `Bearer ${project.publicKey}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('FORBIDDEN');
    const allowed = await call('/test/public', `Bearer ${project.publicKey}`, 'POST');
    expect(allowed.statusCode).toBe(200);
    expect((await call('/test/public', `Bearer ${project.secretKey}`, 'POST')).statusCode).toBe(200);
  });

  it('answers 401 for a revoked key at once, and a new key works', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/admin/projects/${project.id}/keys`,
      headers: t.admin,
      payload: { type: 'secret' },
    });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json().data;
    expect(key).toMatch(/^sk_/);
    expect((await call('/test/secret', `Bearer ${key}`)).statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/admin/projects/${project.id}/keys/${id}`,
      headers: t.admin,
    });
    expect(revoked.json()).toEqual({ success: true, data: { id, deleted: true } });
    expect((await call('/test/secret', `Bearer ${key}`)).statusCode).toBe(401);
  });

  it('answers 403 PROJECT_DISABLED while a project is disabled', async () => {
    const other = await t.createProject('Soon disabled');
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${other.id}`,
      headers: t.admin,
      payload: { disabled: true },
    });
    const res = await call('/test/secret', `Bearer ${other.secretKey}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('PROJECT_DISABLED');
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${other.id}`,
      headers: t.admin,
      payload: { disabled: false },
    });
    expect((await call('/test/secret', `Bearer ${other.secretKey}`)).statusCode).toBe(200);
  });

  it('guards the admin API with the admin token only', async () => {
    expect((await call('/admin/projects')).statusCode).toBe(401);
    expect((await call('/admin/projects', `Bearer ${project.secretKey}`)).statusCode).toBe(401);
    expect((await call('/admin/projects', 'Bearer wrong-admin-token-123456')).statusCode).toBe(401);
    expect((await call('/admin/projects', t.admin.authorization)).statusCode).toBe(200);
  });
});

describe('admin API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates, lists (paginated), reads and renames projects', async () => {
    const created = [];
    for (const name of ['one', 'two', 'three']) created.push(await t.createProject(name));
    const page1 = (await t.app.inject({ method: 'GET', url: '/admin/projects?limit=2', headers: t.admin })).json().data;
    expect(page1.items.map((p: { name: string }) => p.name)).toEqual(['three', 'two']);
    expect(page1).toMatchObject({ hasMore: true, total: 3 });
    const page2 = (
      await t.app.inject({ method: 'GET', url: `/admin/projects?limit=2&cursor=${page1.nextCursor}`, headers: t.admin })
    ).json().data;
    expect(page2).toMatchObject({ hasMore: false, nextCursor: null, total: 3 });
    expect(page2.items.map((p: { name: string }) => p.name)).toEqual(['one']);

    const one = created[0]!;
    const got = await t.app.inject({ method: 'GET', url: `/admin/projects/${one.id}`, headers: t.admin });
    expect(got.json().data).toMatchObject({ id: one.id, name: 'one', disabled: false });
    expect(got.json().data).not.toHaveProperty('secretKey');
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${one.id}`,
      headers: t.admin,
      payload: { name: 'uno' },
    });
    expect(renamed.json().data.name).toBe('uno');
  });

  it('lists keys by prefix only, never the key or its hash', async () => {
    const p = await t.createProject('keys');
    const res = await t.app.inject({ method: 'GET', url: `/admin/projects/${p.id}/keys`, headers: t.admin });
    const items = res.json().data.items;
    expect(items).toHaveLength(2);
    expect(res.body).not.toContain(p.secretKey);
    expect(items.map((k: { type: string }) => k.type).sort()).toEqual(['public', 'secret']);
    expect(p.secretKey.startsWith(items.find((k: { type: string }) => k.type === 'secret').prefix)).toBe(true);
  });

  it('answers 404 for unknown or malformed ids and 422 for bad input', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/projects/not-an-id', headers: t.admin })).statusCode).toBe(
      404,
    );
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/admin/projects/01900000-0000-7000-8000-000000000000',
          headers: t.admin,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/admin/projects/01900000-0000-7000-8000-000000000000/keys/x',
          headers: t.admin,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/admin/projects', headers: t.admin, payload: { name: 42 } }))
        .statusCode,
    ).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/admin/projects?limit=0', headers: t.admin })).statusCode).toBe(
      422,
    );
    expect((await t.app.inject({ method: 'GET', url: '/admin/projects?limit=101', headers: t.admin })).statusCode).toBe(
      422,
    );
    const badCursor = await t.app.inject({ method: 'GET', url: '/admin/projects?cursor=garbage', headers: t.admin });
    expect(badCursor.statusCode).toBe(422);
    expect(badCursor.json().error.errors[0].field).toBe('cursor');
    const p = await t.createProject('k');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/admin/projects/${p.id}/keys`,
          headers: t.admin,
          payload: { type: 'root' },
        })
      ).statusCode,
    ).toBe(422);
  });
});
