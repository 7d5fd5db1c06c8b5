// The transports module: a project's own transports, its routing rules, and the re-sealing of their secrets.
import type { ModuleManifest } from '../../context.types.ts';
import { resealRoutes, transportRoutes } from './transports.routes.ts';

export const transportsModule: ModuleManifest = { name: 'transports', routes: [transportRoutes, resealRoutes] };
