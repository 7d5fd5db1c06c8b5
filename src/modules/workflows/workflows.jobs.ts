// The workflow engine on the durable queue: one `workflow-step` job per step run (DELAY ends and WAIT time-outs
// are jobs due later).
import { z } from 'zod';
import { defineJob } from '../../queue/registry.ts';
import { runStepJob, type EnqueueStep } from './workflows.engine.ts';
import type { AppContext } from '../../context.types.ts';

/** One step of one execution; stale copies (an old seq) do nothing. Retries: 5 s, 10 s, 20 s… (5 in all). */
export const workflowStepJob = defineJob({
  name: 'workflow-step',
  schema: z.object({
    executionId: z.string(),
    seq: z.number().int(),
    phase: z.enum(['start', 'run', 'resume', 'event', 'timeout']),
  }),
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
