// The sending module: the delivery engine that runs in worker processes (claim, pacing, halts, signing, message
// building, handoff to the transport), and the messages as it builds them (GET /emails/{id}/source and /content).
import type { ModuleManifest } from '../../context.types.ts';
import { deliveryPoller } from './sending.pollers.ts';
import { emailSourceRoutes } from './sending.routes.ts';

export const sendingModule: ModuleManifest = {
  name: 'sending',
  routes: [emailSourceRoutes],
  pollers: [deliveryPoller],
};
