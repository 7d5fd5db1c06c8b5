// The fetch loops around pg-boss 10 (src/queue/fetch-loop.ts): what the queue promised on pg-boss 12 still holds.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../src/db/rows.ts';
import { defineJob } from '../../../src/queue/registry.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { until } from '../../support/until.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runs = new Map<string, number>();
const count = (key: string) => runs.set(key, (runs.get(key) ?? 0) + 1).get(key)!;

const batchJob = defineJob({
  name: 'test-batch',
  schema: z.object({ key: z.string(), failFirst: z.boolean() }),
  batchSize: 5,
  queue: { retryLimit: 2, retryDelay: 1, retryBackoff: false },
  async handler(payload) {
    if (count(payload.key) === 1 && payload.failFirst) throw new Error('planned failure');
  },
});

const running = new Set<string>();
let overlapped = false;
const pairJob = defineJob({
  name: 'test-pair',
  schema: z.object({ key: z.string() }),
  batchSize: 1,
  concurrency: 2,
  async handler(payload) {
    running.add(payload.key);
    for (let i = 0; i < 100 && running.size < 2; i++) await sleep(50);
    overlapped ||= running.size === 2;
    await sleep(100);
    running.delete(payload.key);
  },
});

const slowJob = defineJob({
  name: 'test-slow',
  schema: z.object({ key: z.string() }),
  queue: { retryLimit: 2, expireInSeconds: 60, heartbeatSeconds: 2 },
  async handler(payload) {
    count(payload.key);
    await sleep(5000);
    runs.set(`${payload.key}:done`, 1);
  },
});

const cappedJob = defineJob({
  name: 'test-capped',
  schema: z.object({ key: z.string() }),
  queue: { retryLimit: 1, retryDelay: 300, retryBackoff: true, retryDelayMax: 2 },
  async handler() {
    throw new Error('always');
  },
});

describe('job queue workers', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    while (apps.length) await apps.pop()!.close();
  });

  it('settles each job of a batch on its own: the failing one is retried, the others run once', async () => {
    const t = await createTestApp({ worker: true, jobs: [batchJob] });
    apps.push(t);
    await t.ctx.db.transaction(async (tx) => {
      await t.ctx.queue.enqueueMany(
        batchJob,
        ['b1', 'b2', 'b3'].map((key) => ({ payload: { key, failFirst: key === 'b2' } })),
        tx,
      );
    });
    await until(async () => runs.get('b2') === 2, 'the retry of b2');
    await sleep(1500);
    expect([runs.get('b1'), runs.get('b2'), runs.get('b3')]).toEqual([1, 2, 1]);
  });

  it('runs a job enqueued inside a transaction with a delay in seconds', async () => {
    const t = await createTestApp({ worker: true, jobs: [batchJob] });
    apps.push(t);
    await t.ctx.db.transaction(async (tx) => {
      await t.ctx.queue.enqueue(batchJob, { key: 'delayed-tx', failFirst: false }, { tx, startAfter: 1 });
    });
    await until(async () => runs.get('delayed-tx') === 1, 'the delayed job');
  });

  it('runs `concurrency` fetch loops: two jobs of one queue run at the same time', async () => {
    const t = await createTestApp({ worker: true, jobs: [pairJob] });
    apps.push(t);
    await t.ctx.queue.enqueue(pairJob, { key: 'p1' });
    await t.ctx.queue.enqueue(pairJob, { key: 'p2' });
    await until(async () => overlapped, 'both jobs running at once');
  });

  it('leases a running job a heartbeat at a time: expiry passes over a job that beats, and it runs once', async () => {
    const t = await createTestApp({ worker: true, jobs: [slowJob] });
    apps.push(t);
    const id = await t.ctx.queue.enqueue(slowJob, { key: 'slow' });
    await until(async () => runs.get('slow') === 1, 'the slow job to start');
    // The lease is a heartbeat long, not the 60 s run limit: a worker that died would leave it to expire soon.
    const lease = await until(async () => {
      const res = await t.ctx.db.execute(
        sql`SELECT extract(epoch FROM expire_in)::float AS s FROM pgboss.job WHERE id = ${id}::uuid AND state =
          'active'`,
      );
      const row = rowsOf<{ s: number }>(res)[0];
      return row && row.s < 60 ? row : null;
    }, 'the first beat');
    expect(lease.s).toBeLessThan(10);
    for (let i = 0; i < 5; i++) {
      await sleep(1000);
      await t.ctx.queue.boss.expire(); // what maintenance does every minute
    }
    await until(async () => runs.get('slow:done'), 'the slow job to finish');
    expect(runs.get('slow')).toBe(1);
  });

  it('caps the back-off of a retry at retryDelayMax', async () => {
    const t = await createTestApp({ worker: true, jobs: [cappedJob] });
    apps.push(t);
    const id = await t.ctx.queue.enqueue(cappedJob, { key: 'capped' });
    // The retry runs within the cap and fails for good (retryLimit 1); uncapped, it would wait 300–600 s, so
    // the job would still be waiting to retry when this gives up.
    const done = await until(
      async () => {
        const res = await t.ctx.db.execute(
          sql`SELECT retry_count FROM pgboss.job WHERE id = ${id}::uuid AND state = 'failed'`,
        );
        return rowsOf<{ retry_count: number }>(res)[0];
      },
      'the retry, run and failed',
      25_000,
    );
    expect(done.retry_count).toBe(1);
  });
});
