// The suppressions module: addresses a project never sends to.
import type { ModuleManifest } from '../../context.types.ts';
import { suppressionRoutes } from './suppressions.routes.ts';

export const suppressionsModule: ModuleManifest = { name: 'suppressions', routes: [suppressionRoutes] };
