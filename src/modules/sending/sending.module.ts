// The sending module: the delivery engine that runs in worker processes (claim, pacing, halts, signing, message
// building, handoff to the transport), the messages as it builds them (GET /emails/{id}/source and /content), and each
// sender domain's throughput per mailbox provider (GET /domains/{id}/throughput).
import type { ModuleManifest } from '../../context.types.ts';
import { deliveryPoller } from './sending.pollers.ts';
import { emailSourceRoutes } from './sending.routes.ts';
import { throughputRoutes } from './sending.throughput.ts';

export const sendingModule: ModuleManifest = {
  name: 'sending',
  routes: [emailSourceRoutes, throughputRoutes],
  pollers: [deliveryPoller],
};
