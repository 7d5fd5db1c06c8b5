// The settings module: a project's own choices (time zone, tracking, double opt-in, reputation thresholds, the
// default sender).
import type { ModuleManifest } from '../../context.types.ts';
import { confirmationTemplateChange, templateIsConfirmation } from './settings.references.ts';
import { settingsRoutes } from './settings.routes.ts';

export const settingsModule: ModuleManifest = {
  name: 'settings',
  routes: [settingsRoutes],
  references: { template: templateIsConfirmation },
  templateChange: confirmationTemplateChange,
};
