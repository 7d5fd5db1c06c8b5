// The only list of modules: the app registers their routes in this order (after the plugins), the runtime gives
// the context their jobs and pollers and starts their servers in background roles.
import type { ModuleManifest } from './context.types.ts';
import { accountsModule } from './modules/accounts/accounts.module.ts';
import { auditModule } from './modules/audit/audit.module.ts';
import { teamModule } from './modules/team/team.module.ts';
import { ssoModule } from './modules/sso/sso.module.ts';
import { campaignsModule } from './modules/campaigns/campaigns.module.ts';
import { contactsModule } from './modules/contacts/contacts.module.ts';
import { emailsModule } from './modules/emails/emails.module.ts';
import { engagementModule } from './modules/engagement/engagement.module.ts';
import { sendingModule } from './modules/sending/sending.module.ts';
import { domainsModule } from './modules/domains/domains.module.ts';
import { eventsModule } from './modules/events/events.module.ts';
import { exportsModule } from './modules/exports/exports.module.ts';
import { feedbackModule } from './modules/feedback/feedback.module.ts';
import { formsModule } from './modules/forms/forms.module.ts';
import { inboundModule } from './modules/inbound/inbound.module.ts';
import { healthModule } from './modules/health/health.module.ts';
import { relayModule } from './modules/relay/relay.module.ts';
import { resendModule } from './modules/resend/resend.module.ts';
import { projectsModule } from './modules/projects/projects.module.ts';
import { settingsModule } from './modules/settings/settings.module.ts';
import { segmentsModule } from './modules/segments/segments.module.ts';
import { sendModule } from './modules/send/send.module.ts';
import { subscribeModule } from './modules/subscribe/subscribe.module.ts';
import { suppressionsModule } from './modules/suppressions/suppressions.module.ts';
import { topicsModule } from './modules/topics/topics.module.ts';
import { logsModule } from './modules/logs/logs.module.ts';
import { layoutsModule } from './modules/layouts/layouts.module.ts';
import { templatesModule } from './modules/templates/templates.module.ts';
import { trackModule } from './modules/track/track.module.ts';
import { transportsModule } from './modules/transports/transports.module.ts';
import { verifyModule } from './modules/verify/verify.module.ts';
import { mcpModule } from './modules/mcp/mcp.module.ts';
import { webhooksModule } from './modules/webhooks/webhooks.module.ts';
import { workflowsModule } from './modules/workflows/workflows.module.ts';

export const modules: readonly ModuleManifest[] = [
  healthModule,
  projectsModule,
  auditModule,
  logsModule,
  accountsModule,
  teamModule,
  ssoModule,
  settingsModule,
  contactsModule,
  eventsModule,
  trackModule,
  domainsModule,
  layoutsModule,
  templatesModule,
  sendModule,
  emailsModule,
  sendingModule,
  engagementModule,
  suppressionsModule,
  verifyModule,
  topicsModule,
  subscribeModule,
  formsModule,
  exportsModule,
  segmentsModule,
  campaignsModule,
  workflowsModule,
  feedbackModule,
  relayModule,
  inboundModule,
  webhooksModule,
  transportsModule,
  resendModule,
  mcpModule,
];
