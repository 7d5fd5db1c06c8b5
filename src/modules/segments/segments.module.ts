// The segments module: segments (filtered and lists), their membership tracking, and the filter language.
import type { ModuleManifest } from '../../context.types.ts';
import { membershipTracker } from './segments.pollers.ts';
import { topicInSegmentFilters } from './segments.references.ts';
import { segmentRoutes } from './segments.routes.ts';

export const segmentsModule: ModuleManifest = {
  name: 'segments',
  routes: [segmentRoutes],
  pollers: [membershipTracker],
  references: { topic: topicInSegmentFilters },
};
