// The templates module: templates and their previews.
import type { ModuleManifest } from '../../context.types.ts';
import { templatePreviewRoutes } from './templates.preview.routes.ts';
import { templateRoutes } from './templates.routes.ts';

export const templatesModule: ModuleManifest = { name: 'templates', routes: [templateRoutes, templatePreviewRoutes] };
