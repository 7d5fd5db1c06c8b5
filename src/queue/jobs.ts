import type { AnyJob } from './registry.ts';
import { purgeExpiredJob } from './jobs/maintenance.ts';
import { importContactsJob } from '../modules/contacts/contacts.import.job.ts';

/** Every job the worker runs; each module adds its own here. */
export const allJobs: AnyJob[] = [purgeExpiredJob, importContactsJob];
