// A response that shows a secret or key once (a webhook's whsec_, a rotated signing secret, project keys) is
// kept by the idempotency store without it, and a replay of the same request does not hand it out again — while
// staying a replay: no second endpoint, no second rotation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

describe('Idempotency-Key on responses that carry a secret', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    project = await t.createProject();
  });
  afterAll(() => t.close());

  const post = (url: string, key: string, payload?: object, headers: Record<string, string> = project.auth) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'idempotency-key': key },
      ...(payload ? { payload } : {}),
    });

  /** Every stored response of the project: none may hold the secret (or any whsec_/sk_/pk_ value). */
  async function storedBodies(): Promise<string[]> {
    const rows = rowsOf<{ response_body: string | null }>(
      await t.ctx.db.execute(sql`SELECT response_body FROM idempotency_keys`),
    );
    return rows.map((r) => r.response_body ?? '');
  }

  async function expectNotStored(secret: string): Promise<void> {
    const bodies = await storedBodies();
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(body).not.toContain(secret);
      expect(body).not.toMatch(/whsec_|sk_|pk_/);
    }
  }

  it(
    'POST /webhooks: the secret is neither stored nor replayed, and the replay ' + 'creates no second endpoint',
    async () => {
      const payload = { url: 'http://127.0.0.1:9/hooks', events: ['*'] };
      const first = await post('/webhooks', 'hook-1', payload);
      expect(first.statusCode).toBe(201);
      const created = first.json().data as { id: string; secret: string };
      expect(created.secret).toMatch(/^whsec_/);
      await expectNotStored(created.secret);

      const replay = await post('/webhooks', 'hook-1', payload);
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).not.toContain(created.secret);
      const { secret, ...rest } = created;
      expect(secret).toBeDefined();
      expect(replay.json()).toEqual({ success: true, data: rest });
      const list = await t.app.inject({ method: 'GET', url: '/webhooks', headers: project.auth });
      expect(list.json().data.total).toBe(1);
    },
  );

  it(
    'POST /webhooks/{id}/rotate-secret: the new secret is neither stored nor ' +
      'replayed, and the replay rotates nothing',
    async () => {
      const created = (
        await t.app.inject({
          method: 'POST',
          url: '/webhooks',
          headers: project.auth,
          payload: { url: 'http://127.0.0.1:9/r', events: ['*'] },
        })
      ).json().data as { id: string };
      const first = await post(`/webhooks/${created.id}/rotate-secret`, 'rotate-1');
      expect(first.statusCode).toBe(200);
      const rotated = first.json().data as { secret: string; updatedAt: string };
      await expectNotStored(rotated.secret);

      const replay = await post(`/webhooks/${created.id}/rotate-secret`, 'rotate-1');
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).not.toContain('whsec_');
      expect(replay.json().data).toMatchObject({ id: created.id, updatedAt: rotated.updatedAt });
      // Not rotated again: the endpoint still shows the first rotation's time.
      const read = await t.app.inject({ method: 'GET', url: `/webhooks/${created.id}`, headers: project.auth });
      expect(read.json().data.updatedAt).toBe(rotated.updatedAt);
    },
  );

  it(
    'POST /workflows/signing-secret/rotate: the secret is neither stored nor ' +
      'replayed, and the replay rotates nothing',
    async () => {
      const first = await post('/workflows/signing-secret/rotate', 'wf-rotate-1');
      expect(first.statusCode).toBe(200);
      const rotated = first.json().data as { secret: string; rotatedAt: string };
      await expectNotStored(rotated.secret);

      const replay = await post('/workflows/signing-secret/rotate', 'wf-rotate-1');
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).not.toContain('whsec_');
      expect(replay.json().data).toEqual({
        createdAt: expect.any(String),
        rotatedAt: rotated.rotatedAt,
        previousValidUntil: expect.any(String),
      });
      const current = await t.app.inject({ method: 'GET', url: '/workflows/signing-secret', headers: project.auth });
      expect(current.json().data).toMatchObject({ secret: rotated.secret, rotatedAt: rotated.rotatedAt });
    },
  );

  it('the admin routes that show keys store none of them', async () => {
    const created = await post('/admin/projects', 'project-1', { name: 'Keyed' }, t.admin);
    expect(created.statusCode).toBe(201);
    const key = await post(`/admin/projects/${created.json().data.id}/keys`, 'key-1', { type: 'secret' }, t.admin);
    expect(key.statusCode).toBe(201);
    for (const body of await storedBodies()) {
      expect(body).not.toContain(created.json().data.secretKey);
      expect(body).not.toContain(created.json().data.publicKey);
      expect(body).not.toContain(key.json().data.key);
    }
  });
});
