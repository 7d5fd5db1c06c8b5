// The contacts module: contacts, their data and subscription, bulk imports and bulk actions.
import type { ModuleManifest } from '../../context.types.ts';
import { bulkContactsJob } from './contacts.bulk.jobs.ts';
import { importContactsJob } from './contacts.jobs.ts';
import { contactRoutes } from './contacts.routes.ts';
import { sunsetJob } from './contacts.sunset.ts';

export const contactsModule: ModuleManifest = {
  name: 'contacts',
  routes: [contactRoutes],
  jobs: [importContactsJob, bulkContactsJob, sunsetJob],
};
