// The engagement module: the public links inside sent mail (open pixel, click redirect, unsubscribe and
// preference pages), answered without an API key.
import type { ModuleManifest } from '../../context.types.ts';
import { linkRoutes } from './engagement.routes.ts';

export const engagementModule: ModuleManifest = { name: 'engagement', routes: [linkRoutes] };
