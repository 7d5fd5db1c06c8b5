// The pump that turns executions the events trigger started or woke (or a project's release let go on) into
// step jobs.
import type { AppContext } from '../../context.types.ts';
import { definePoller } from '../../queue/poller.ts';
import { claimPending, hasPending } from './workflows.executions.repo.ts';
import { workflowStepJob } from './workflows.jobs.ts';

const PUMP_BATCH = 500;

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
      await ctx.queue.enqueueMany(
        workflowStepJob,
        rows
          .filter((row) => !row.gone)
          .map((row) => ({
            payload: { executionId: row.id, seq: row.seq, phase: row.phase },
          })),
        tx,
      );
      return rows.length;
    });
    return claimed === PUMP_BATCH;
  },
});
