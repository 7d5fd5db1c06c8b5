// The front door of the domains module: other modules import only what is exported here.
export type { DomainRow } from './domains.service.ts';
export { domainCandidates, findSigningDomain, requireSenderDomain } from './domains.service.ts';
export { addLocalSenderDomain, findReceivingDomains } from './domains.service.ts';
export { LOCAL_SENDER_DOMAIN, localDomainRefusal } from './domains.local.ts';
export { DOMAIN_CHANGES_CHANNEL } from './domains.changes.ts';
