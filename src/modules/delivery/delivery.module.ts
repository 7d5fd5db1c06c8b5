// The delivery module: the emails table and their whole life (queue, delivery, opens, clicks, unsubscribes).
import type { ModuleManifest } from '../../context.types.ts';
import { deliveryPoller } from './delivery.jobs.ts';
import { emailReportRoutes } from './delivery.reports.routes.ts';
import { emailRoutes } from './delivery.routes.ts';
import { eraseContactEmails } from './delivery.erasure.ts';
import { linkRoutes } from './delivery.links.routes.ts';
import { emailContentRetentionJob } from './delivery.retention.ts';

export const deliveryModule: ModuleManifest = { name: 'delivery', routes: [emailRoutes, emailReportRoutes, linkRoutes], pollers: [deliveryPoller], jobs: [emailContentRetentionJob], contactErasure: eraseContactEmails };
