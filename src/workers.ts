// The background side of a process (roles `serve` and `worker`), started the same way by the runtime and tests.
import type { AppContext } from './context.ts';
import { startFeedbackReceiver, type FeedbackReceiver } from './modules/feedback/index.ts';

export interface WorkerServices {
  /** The bounce/complaint SMTP receiver, when FEEDBACK_SMTP_PORT is set. */
  feedback: FeedbackReceiver | null;
  close(): Promise<void>;
}

/** Starts the job workers and pollers (webhook sender, workflow pump) and, when configured, the feedback receiver. */
export async function startWorkerServices(ctx: AppContext): Promise<WorkerServices> {
  await ctx.queue.startWorkers(ctx);
  // One bounce/complaint listener per worker process that has the port configured.
  const feedback = ctx.config.feedbackSmtp.port === undefined ? null : await startFeedbackReceiver(ctx, ctx.config.feedbackSmtp.port);
  return {
    feedback,
    async close() {
      await feedback?.close();
    },
  };
}
