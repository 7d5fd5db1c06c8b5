// The domains module: sender domains, their DKIM keys, DNS checks, blocklist watch, DMARC and TLS reports.
import type { ModuleManifest } from '../../context.types.ts';
import { checkDomainsJob } from './domains.jobs.ts';
import { blocklistsAtStart, blocklistsJob } from './domains.blocklists.ts';
import { domainRoutes } from './domains.routes.ts';
import { reportRetentionJob } from './domains.reports.ts';

export const domainsModule: ModuleManifest = {
  name: 'domains',
  routes: [domainRoutes],
  jobs: [checkDomainsJob, blocklistsJob, reportRetentionJob],
  pollers: [blocklistsAtStart],
};
