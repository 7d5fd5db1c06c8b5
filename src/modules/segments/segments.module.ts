// The segments module: segments and the filter language.
import type { ModuleManifest } from '../../context.types.ts';
import { segmentRoutes } from './segments.routes.ts';

export const segmentsModule: ModuleManifest = { name: 'segments', routes: [segmentRoutes] };
