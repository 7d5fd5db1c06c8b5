// The health module: liveness, readiness and the Prometheus metrics.
import type { ModuleManifest } from '../../context.types.ts';
import { healthRoutes } from './health.routes.ts';
import { metricsRoutes } from './metrics.routes.ts';

export const healthModule: ModuleManifest = { name: 'health', routes: [healthRoutes, metricsRoutes] };
