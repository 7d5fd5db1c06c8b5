// The contacts module: contacts, their data and subscription, and bulk imports.
import type { ModuleManifest } from '../../context.types.ts';
import { importContactsJob } from './contacts.jobs.ts';
import { contactRoutes } from './contacts.routes.ts';

export const contactsModule: ModuleManifest = { name: 'contacts', routes: [contactRoutes], jobs: [importContactsJob] };
