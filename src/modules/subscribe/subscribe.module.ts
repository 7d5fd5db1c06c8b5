// The subscribe module: signups with double opt-in and their confirmation links.
import type { ModuleManifest } from '../../context.types.ts';
import { subscribeRoutes } from './subscribe.routes.ts';

export const subscribeModule: ModuleManifest = { name: 'subscribe', routes: [subscribeRoutes] };
