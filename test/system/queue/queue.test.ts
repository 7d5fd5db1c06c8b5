import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { defineJob } from '../../../src/queue/registry.ts';
import { purgeExpiredJob } from '../../../src/queue/jobs/maintenance.ts';
import { idempotencyKeys } from '../../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { until } from '../../support/until.ts';

const attempts = new Map<string, number[]>();
const flakyJob = defineJob({
  name: 'test-flaky',
  schema: z.object({ key: z.string(), failTimes: z.number() }),
  queue: { retryLimit: 3, retryDelay: 1, retryBackoff: true },
  async handler(payload, _ctx, job) {
    const list = attempts.get(payload.key) ?? [];
    list.push(job.retryCount);
    attempts.set(payload.key, list);
    if (list.length <= payload.failTimes) throw new Error(`planned failure ${list.length}`);
  },
});

const ranAt = new Map<string, number>();
const stampJob = defineJob({
  name: 'test-stamp',
  schema: z.object({ key: z.string() }),
  async handler(payload) {
    ranAt.set(payload.key, Date.now());
  },
});

describe('job queue', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    while (apps.length) await apps.pop()!.close();
  });

  it('runs a job enqueued by a process that has since stopped (durable across restart)', async () => {
    const first = await createTestApp({ worker: false });
    const project = await first.createProject();
    await first.ctx.db.insert(idempotencyKeys).values({
      projectId: project.id,
      scope: 'POST /v1/send',
      key: 'old',
      requestHash: 'h',
      status: 'done',
      lockedUntil: new Date(0),
      createdAt: new Date(Date.now() - 25 * 3600_000),
    });
    // Enqueued inside a transaction, as modules do: it exists once the transaction commits.
    await first.ctx.db.transaction(async (tx) => {
      await first.ctx.queue.enqueue(purgeExpiredJob, {}, { tx });
    });
    const testDb = first.testDb;
    await first.app.close();
    await first.ctx.queue.stop();
    await first.ctx.database.close();

    const second = await createTestApp({ worker: true, database: testDb });
    try {
      await until(
        async () => (await second.ctx.db.select().from(idempotencyKeys)).length === 0,
        'the purge job to run after restart',
      );
    } finally {
      // Stopped before its database is dropped: dropping it under a running instance ends that instance's
      // connections, and the pool's idle ones fail outside any test.
      await second.close();
      await testDb.drop();
    }
  });

  it('does not enqueue a job whose transaction rolled back', async () => {
    const t = await createTestApp({ worker: false, jobs: [stampJob] });
    apps.push(t);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await t.ctx.queue.enqueue(stampJob, { key: 'rolled-back' }, { tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'test-stamp'`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it('retries a failing job with back-off until it succeeds', async () => {
    const t = await createTestApp({ worker: true, jobs: [flakyJob] });
    apps.push(t);
    await t.ctx.queue.enqueue(flakyJob, { key: 'k1', failTimes: 2 });
    const seen = await until(
      async () => (attempts.get('k1')?.length === 3 ? attempts.get('k1') : null),
      'three attempts',
    );
    expect(seen).toEqual([0, 1, 2]);
  });

  it('holds a delayed job until its start time', async () => {
    const t = await createTestApp({ worker: true, jobs: [stampJob] });
    apps.push(t);
    const startAfter = new Date(Date.now() + 2000);
    await t.ctx.queue.enqueue(stampJob, { key: 'delayed' }, { startAfter });
    const at = await until(async () => ranAt.get('delayed'), 'the delayed job');
    expect(at).toBeGreaterThanOrEqual(startAfter.getTime());
  });

  it('rejects a payload that does not match the job schema before it is stored', async () => {
    const t = await createTestApp({ worker: false, jobs: [stampJob] });
    apps.push(t);
    await expect(t.ctx.queue.enqueue(stampJob, { key: 5 } as unknown as { key: string })).rejects.toThrow();
  });
});
