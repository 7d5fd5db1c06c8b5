import type { AnyJob } from './queue/registry.ts';
import type { PollerDefinition } from './queue/poller.ts';
import { purgeExpiredJob } from './queue/jobs/maintenance.ts';
import { importContactsJob } from './modules/contacts/contacts.import.job.ts';
import { checkDomainsJob } from './modules/domains/domains.jobs.ts';
import { deliveryPoller } from './modules/delivery/index.ts';
import { campaignFanoutJob, campaignFinishJob, campaignSweepJob } from './modules/campaigns/campaigns.fanout.ts';
import { workflowPump, workflowStepJob } from './modules/workflows/index.ts';
import { webhookSender } from './modules/webhooks/index.ts';

/** Every job the worker runs; each module adds its own here. */
export const allJobs: AnyJob[] = [purgeExpiredJob, importContactsJob, checkDomainsJob, campaignFanoutJob, campaignFinishJob, campaignSweepJob, workflowStepJob];

/** Every poller each worker process runs next to the jobs (short polls of a module's own table). */
export const allPollers: PollerDefinition[] = [deliveryPoller, workflowPump, webhookSender];
