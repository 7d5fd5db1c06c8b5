// The layouts module: the frames (header, footer, styles) templates and campaigns are put in.
import type { ModuleManifest } from '../../context.types.ts';
import { layoutRoutes } from './layouts.routes.ts';

export const layoutsModule: ModuleManifest = { name: 'layouts', routes: [layoutRoutes] };
