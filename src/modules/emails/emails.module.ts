// The emails module: the emails table and its side tables, every email's lifecycle (one transition table, one
// guarded writer), intake of new messages, and the email log.
import type { ModuleManifest } from '../../context.types.ts';
import { releaseHeldEmails } from './emails.claim.ts';
import { countUnsubscribes } from './emails.engagement.ts';
import { eraseContactEmails } from './emails.erasure.ts';
import { emailReportRoutes } from './emails.reports.routes.ts';
import { emailContentRetentionJob } from './emails.retention.ts';
import { emailRoutes } from './emails.routes.ts';

export const emailsModule: ModuleManifest = {
  name: 'emails',
  routes: [emailRoutes, emailReportRoutes],
  jobs: [emailContentRetentionJob],
  contactErasure: eraseContactEmails,
  consentRecorded: countUnsubscribes,
  releaseHolds: async (opts) => {
    await releaseHeldEmails(opts);
  },
};
