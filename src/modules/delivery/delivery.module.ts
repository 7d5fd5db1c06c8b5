// The delivery module: the emails table and their whole life (queue, delivery, opens, clicks, unsubscribes).
import type { ModuleManifest } from '../../context.types.ts';
import { deliveryPoller } from './delivery.poller.ts';
import { emailReportRoutes } from './delivery.reports.routes.ts';
import { emailRoutes } from './delivery.routes.ts';
import { trackingRoutes } from './delivery.tracking.routes.ts';

export const deliveryModule: ModuleManifest = { name: 'delivery', routes: [emailRoutes, emailReportRoutes, trackingRoutes], pollers: [deliveryPoller] };
