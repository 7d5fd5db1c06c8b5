// The track module: POST /v1/track (events from apps and browsers).
import type { ModuleManifest } from '../../context.types.ts';
import { trackRoutes } from './track.routes.ts';

export const trackModule: ModuleManifest = { name: 'track', routes: [trackRoutes] };
