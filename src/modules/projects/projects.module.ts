// The projects module: projects and their API keys (the admin API), and the clean-up of dashboard session keys.
import type { ModuleManifest } from '../../context.types.ts';
import { sessionKeysCleanupJob } from './projects.jobs.ts';
import { apiKeyRoutes } from './projects.keys.routes.ts';
import { projectRoutes } from './projects.routes.ts';

export const projectsModule: ModuleManifest = {
  name: 'projects',
  routes: [
    (ctx, host) => projectRoutes(ctx, () => host.clearKeyCache()),
    (ctx, host) => apiKeyRoutes(ctx, () => host.clearKeyCache()),
  ],
  jobs: [sessionKeysCleanupJob],
};
