// The logs module: the request log, every API request of a project with its redacted bodies, kept a week.
import type { ModuleManifest } from '../../context.types.ts';
import { captureRequests } from './logs.capture.ts';
import { logsRetentionJob } from './logs.jobs.ts';
import { logsRoutes } from './logs.routes.ts';
import { eraseContactsFromLog } from './logs.service.ts';

export const logsModule: ModuleManifest = {
  name: 'logs',
  hooks: [captureRequests],
  routes: [logsRoutes],
  jobs: [logsRetentionJob],
  contactErasure: eraseContactsFromLog,
};
