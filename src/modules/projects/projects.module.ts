// The projects module: projects and their API keys (the admin API).
import type { ModuleManifest } from '../../context.types.ts';
import { projectRoutes } from './projects.routes.ts';

export const projectsModule: ModuleManifest = { name: 'projects', routes: [(ctx, host) => projectRoutes(ctx, () => host.clearKeyCache())] };
