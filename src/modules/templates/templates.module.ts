// The templates module: templates, their versions and their previews.
import type { ModuleManifest } from '../../context.types.ts';
import { findTemplateNamingLayout } from './templates.repo.ts';
import { recompileForLayout } from './templates.service.ts';
import { templatePreviewRoutes } from './templates.preview.routes.ts';
import { templateRoutes } from './templates.routes.ts';

export const templatesModule: ModuleManifest = {
  name: 'templates',
  routes: [templateRoutes, templatePreviewRoutes],
  references: {
    layout: async ({ db, projectId, id }) => {
      const template = await findTemplateNamingLayout(db, projectId, id);
      return (
        template && {
          message: `The layout is used by template ${template.name}`,
          suggestion: 'Change its layout first',
        }
      );
    },
  },
  layoutChange: (opts) => recompileForLayout(opts),
};
