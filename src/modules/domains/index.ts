// The front door of the domains module: other modules import only what is exported here.
export type { DomainRow, DomainView } from './domains.service.ts';
export { createDomain, deleteDomain, getDomain, listDomains, updateDomain, verifyDomain } from './domains.service.ts';
export {
  domainCandidates,
  findSigningDomain,
  requireSenderDomain,
  SENDER_DOMAIN_NOT_ALLOWED,
  verifiedTrackingHost,
} from './domains.service.ts';
export { trackingHostOf } from './domains.view.ts';
export { addLocalSenderDomain, findReceivingDomains, newProjectSetup, systemSigningKey } from './domains.service.ts';
export { isLocalDomain, LOCAL_SENDER_DOMAIN, localDomainRefusal } from './domains.local.ts';
export { DOMAIN_CHANGES_CHANNEL } from './domains.changes.ts';
export { DEFAULT_WARMUP_SCHEDULE, nextUtcDay, utcDay, warmupCap, warmupDay } from './domains.warmup.ts';
export { acceptsReportAddress, isReportAddress, receiveReports } from './domains.reports.ts';
export { ReportRefused } from '../../mail/receive-pool/report-files.ts';
