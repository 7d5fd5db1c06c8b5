// The background side of a process (roles `serve` and `worker`), started the same way by the runtime and tests.
import type { AppContext } from './context.ts';
import { startFeedbackReceiver, type FeedbackReceiver } from './modules/feedback/index.ts';
import { startWebhookSender, type WebhookSender } from './modules/webhooks/index.ts';

export interface WorkerServices {
  /** The bounce/complaint SMTP receiver, when FEEDBACK_SMTP_PORT is set. */
  feedback: FeedbackReceiver | null;
  webhooks: WebhookSender;
  close(): Promise<void>;
}

/** Starts the job workers, the webhook sender and (when configured) the feedback receiver. */
export async function startWorkerServices(ctx: AppContext): Promise<WorkerServices> {
  await ctx.queue.startWorkers(ctx);
  const webhooks = await startWebhookSender(ctx);
  // One bounce/complaint listener per worker process that has the port configured.
  const feedback = ctx.config.feedbackSmtp.port === undefined ? null : await startFeedbackReceiver(ctx, ctx.config.feedbackSmtp.port);
  return {
    feedback,
    webhooks,
    async close() {
      await feedback?.close();
      await webhooks.close();
    },
  };
}
