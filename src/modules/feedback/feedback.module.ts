// The feedback module: bounces, complaints and provider notices received after the handoff.
import type { ModuleManifest } from '../../context.types.ts';
import { feedbackRoutes } from './feedback.routes.ts';
import { feedbackMailboxPlan } from './feedback.smtp.ts';

export const feedbackModule: ModuleManifest = {
  name: 'feedback',
  routes: [feedbackRoutes],
  // The bounce/complaint recipients, on FEEDBACK_SMTP_PORT (shared with inbound mail when the ports are equal).
  mailboxes: [feedbackMailboxPlan],
};
