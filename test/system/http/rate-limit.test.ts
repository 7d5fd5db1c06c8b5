import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../../support/app.ts';

const probe = (app: FastifyInstance) => {
  app.get('/test/ping', { config: { auth: 'secret' } }, async () => ({ success: true, data: { pong: true } }));
};

describe('rate limit shared by two app instances on one database', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '10' };
    a = await createTestApp({ env, register: probe });
    // On PostgreSQL the second instance has its own connection pool, as a second process would.
    b =
      a.testDb.kind === 'postgres'
        ? await createTestApp({ env, register: probe, database: a.testDb })
        : await createTestApp({ env, register: probe, database: a.testDb, handle: a.ctx.database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('admits exactly the limit across both instances, then answers 429 with Retry-After', async () => {
    const { auth } = await a.createProject();
    const statuses: number[] = [];
    const remaining: number[] = [];
    let lastDenied: Awaited<ReturnType<typeof a.app.inject>> | null = null;
    for (let i = 0; i < 16; i++) {
      const res = await (i % 2 === 0 ? a : b).app.inject({ method: 'GET', url: '/test/ping', headers: auth });
      statuses.push(res.statusCode);
      expect(res.headers['ratelimit-limit']).toBe('10');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(Number(res.headers['ratelimit-remaining']));
      if (res.statusCode === 429) lastDenied = res;
    }
    // A window boundary in the middle of the loop would reset the count: allow for it only then.
    const allowed = statuses.filter((s) => s === 200).length;
    expect(allowed === 10 || (allowed > 10 && statuses.includes(429))).toBe(true);
    expect(lastDenied).not.toBeNull();
    expect(lastDenied!.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(lastDenied!.headers['retry-after'])).toBeGreaterThan(0);
    expect(remaining.at(-1)).toBe(0);
  });

  it('counts each project on its own', async () => {
    const other = await a.createProject('other');
    const res = await b.app.inject({ method: 'GET', url: '/test/ping', headers: other.auth });
    expect(res.statusCode).toBe(200);
  });
});
