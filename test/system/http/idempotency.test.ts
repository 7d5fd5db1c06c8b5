import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTestApp, type TestApp } from '../../support/app.ts';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let runs = 0;
  let release: (() => void) | null = null;

  beforeAll(async () => {
    t = await createTestApp({
      register: (app) => {
        app
          .withTypeProvider<ZodTypeProvider>()
          .post(
            '/test/orders',
            { config: { auth: 'secret' }, schema: { body: z.object({ item: z.string() }) } },
            async (request, reply) => {
              runs += 1;
              if (request.body.item === 'slow')
                await new Promise<void>((resolve) => {
                  release = resolve;
                });
              reply.code(201);
              return { success: true, data: { order: runs, item: request.body.item } };
            },
          );
      },
    });
    auth = (await t.createProject()).auth;
  });
  afterAll(() => t.close());

  const post = (key: string | undefined, item: string) =>
    t.app.inject({
      method: 'POST',
      url: '/test/orders',
      payload: { item },
      headers: { ...auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });

  it('replays the first response for the same key and body, running the handler once', async () => {
    const first = await post('order-1', 'book');
    const second = await post('order-1', 'book');
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_MISMATCH for the same key with another body', async () => {
    await post('order-2', 'pen');
    const res = await post('order-2', 'ink');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS while the first request runs', async () => {
    const pending = post('order-3', 'slow');
    while (!release) await new Promise((r) => setTimeout(r, 10));
    const concurrent = await post('order-3', 'slow');
    expect(concurrent.statusCode).toBe(409);
    expect(concurrent.json().error.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    release!();
    expect((await pending).statusCode).toBe(201);
    expect((await post('order-3', 'slow')).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps keys per project and rejects malformed keys with 400', async () => {
    const other = (await t.createProject('other')).auth;
    const before = runs;
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/orders',
      payload: { item: 'book' },
      headers: { ...other, 'idempotency-key': 'order-1' },
    });
    expect(res.statusCode).toBe(201);
    expect(runs).toBe(before + 1);
    expect((await post('x'.repeat(256), 'a')).statusCode).toBe(400);
    expect((await post('bad\u0007key', 'a')).statusCode).toBe(400);
  });

  it('does not store validation failures as a result of the key', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/test/orders',
      payload: { item: 5 },
      headers: { ...auth, 'idempotency-key': 'order-4' },
    });
    expect(bad.statusCode).toBe(422);
    const good = await post('order-4', 'mug');
    expect(good.statusCode).toBe(201);
  });
});
