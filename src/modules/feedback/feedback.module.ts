// The feedback module: bounces, complaints and provider notices received after the handoff.
import type { ModuleManifest } from '../../context.types.ts';
import { feedbackRoutes } from './feedback.routes.ts';
import { startFeedbackReceiver } from './feedback.smtp.ts';

export const feedbackModule: ModuleManifest = {
  name: 'feedback',
  routes: [feedbackRoutes],
  // One bounce/complaint listener per background process that has the port configured.
  servers: [async (ctx) => (ctx.config.feedbackSmtp.port === undefined ? null : startFeedbackReceiver(ctx, ctx.config.feedbackSmtp.port))],
};
