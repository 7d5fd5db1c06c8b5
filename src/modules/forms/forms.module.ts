// The forms module: signup forms, their hosted pages and embed snippets, and their submissions.
import type { ModuleManifest } from '../../context.types.ts';
import { formPageRoutes } from './forms.pages.routes.ts';
import { formRoutes } from './forms.routes.ts';

export const formsModule: ModuleManifest = { name: 'forms', routes: [formRoutes, formPageRoutes] };
