// The exports module: contacts as a streamed CSV, and one person's data (a data-subject access request).
import type { ModuleManifest } from '../../context.types.ts';
import { exportRoutes } from './exports.routes.ts';

export const exportsModule: ModuleManifest = { name: 'exports', routes: [exportRoutes] };
