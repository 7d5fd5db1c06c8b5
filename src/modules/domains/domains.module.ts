// The domains module: sender domains, their DKIM keys and DNS checks.
import type { ModuleManifest } from '../../context.types.ts';
import { checkDomainsJob } from './domains.jobs.ts';
import { blocklistsJob } from './domains.blocklists.ts';
import { domainRoutes } from './domains.routes.ts';

export const domainsModule: ModuleManifest = {
  name: 'domains',
  routes: [domainRoutes],
  jobs: [checkDomainsJob, blocklistsJob],
};
