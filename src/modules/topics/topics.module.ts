// The topics module: subjects contacts choose to hear about, and their choices.
import type { ModuleManifest } from '../../context.types.ts';
import { topicPageRoutes } from './topics.pages.routes.ts';
import { topicRoutes } from './topics.routes.ts';

export const topicsModule: ModuleManifest = { name: 'topics', routes: [topicRoutes, topicPageRoutes] };
