import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { errorShape } from '../../support/envelope.ts';

describe('error envelope and status codes', () => {
  let t: TestApp;
  let auth: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp({
      bodyLimit: 2048,
      register: (app) => {
        app.post(
          '/test/echo',
          {
            config: { auth: 'secret' },
            schema: { body: z.object({ name: z.string().min(1), count: z.number().int().max(10).optional() }) },
          },
          async (request) => ({ success: true, data: request.body }),
        );
        app.get('/test/boom', { config: { auth: 'secret' } }, async () => {
          throw new Error('secret internal detail: password=hunter2');
        });
      },
    });
    auth = (await t.createProject()).auth;
  });
  afterAll(() => t.close());

  it('answers malformed JSON with 400 BAD_REQUEST in the envelope, with X-Request-Id', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    const body = errorShape.parse(res.json());
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.message).toBe(body.error.message);
    expect(res.headers['x-request-id']).toBe(body.error.requestId);
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: auth,
      payload: { name: 'x'.repeat(5000) },
    });
    expect(res.statusCode).toBe(413);
    expect(errorShape.parse(res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers schema violations with 422 VALIDATION_ERROR listing each field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: auth,
      payload: { name: '', count: 'many' },
    });
    expect(res.statusCode).toBe(422);
    const body = errorShape.parse(res.json());
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.errors?.map((e) => e.field).sort()).toEqual(['count', 'name']);
  });

  it('ignores unknown body fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: auth,
      payload: { name: 'a', type: 'extra' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { name: 'a' } });
  });

  it('answers an unsupported content type with a 4xx, never a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=a',
    });
    expect(res.statusCode).toBe(415);
    errorShape.parse(res.json());
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(errorShape.parse(res.json()).error.code).toBe('NOT_FOUND');
  });

  it('hides internals in a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/boom', headers: auth });
    expect(res.statusCode).toBe(500);
    const body = errorShape.parse(res.json());
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(res.body).not.toContain('hunter2');
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/admin/projects', '/admin/projects/{id}/keys', '/healthz', '/readyz']),
    );
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});

describe('health', () => {
  it('is ready with a database and answers 503 once the database is gone', async () => {
    const t = await createTestApp();
    const auth = (await t.createProject()).auth;
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await t.ctx.queue.stop();
    await t.ctx.database.close();
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBeDefined();
    const list = await t.app.inject({ method: 'GET', url: '/admin/projects', headers: t.admin });
    expect(list.statusCode).toBe(503);
    expect(list.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(auth).toBeDefined();
    await t.app.close();
    await t.testDb.drop();
  });
});
