// The inbound module: mail received at the projects' receiving domains.
import type { ModuleManifest } from '../../context.types.ts';
import { inboundRetentionJob } from './inbound.jobs.ts';
import { inboundRoutes } from './inbound.routes.ts';
import { inboundMailboxPlan, reportsMailboxPlan } from './inbound.smtp.ts';

export const inboundModule: ModuleManifest = {
  name: 'inbound',
  routes: [inboundRoutes],
  jobs: [inboundRetentionJob],
  // The report addresses, then any local part at a receiving domain, on INBOUND_SMTP_PORT (one listener with feedback
  // when the ports are equal).
  mailboxes: [reportsMailboxPlan, inboundMailboxPlan],
};
