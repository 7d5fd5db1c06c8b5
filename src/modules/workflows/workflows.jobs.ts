// The workflow engine on the durable queue: one `workflow-step` job per step run (DELAY ends and WAIT time-outs
// are jobs due later), and the pump that turns executions the events trigger started or woke into step jobs.
import { z } from 'zod';
import { definePoller } from '../../queue/poller.ts';
import { defineJob } from '../../queue/registry.ts';
import { claimPending, hasPending } from './workflows.executions.repo.ts';
import { runStepJob, type EnqueueStep } from './workflows.engine.ts';
import type { AppContext } from '../../context.types.ts';

const PUMP_BATCH = 500;

/** One step of one execution; stale copies (an old seq) do nothing. Retries: 5 s, 10 s, 20 s… (5 in all). */
export const workflowStepJob = defineJob({
  name: 'workflow-step',
  schema: z.object({ executionId: z.string(), seq: z.number().int(), phase: z.enum(['start', 'run', 'resume', 'event', 'timeout']) }),
  batchSize: 20,
  // Steps are short and mostly wait on the database: several fetch loops keep more of them in flight.
  concurrency: 3,
  queue: { retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120 },
  async handler(payload, ctx: AppContext, job) {
    await runStepJob(ctx, payload, job, enqueueStep);
  },
});

const enqueueStep: EnqueueStep = async (ctx, tx, payload, startAfter) => {
  await ctx.queue.enqueue(workflowStepJob, payload, { tx, ...(startAfter ? { startAfter } : {}) });
};

/**
 * Every 200 ms (at once again while there is more): claims executions marked pending by the events trigger (or
 * released when their project was enabled) and queues their step job in the same transaction, so a start, wake
 * or release is never lost nor queued twice.
 */
export const workflowPump = definePoller({
  name: 'workflow-pump',
  intervalMs: 200,
  async run(ctx: AppContext) {
    if (!(await hasPending(ctx.db))) return false;
    const claimed = await ctx.db.transaction(async (tx) => {
      const rows = await claimPending(tx, PUMP_BATCH);
      await ctx.queue.enqueueMany(workflowStepJob, rows.filter((row) => !row.gone).map((row) => ({
        payload: { executionId: row.id, seq: row.seq, phase: row.phase },
      })), tx);
      return rows.length;
    });
    return claimed === PUMP_BATCH;
  },
});
