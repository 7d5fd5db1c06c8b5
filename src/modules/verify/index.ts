// The front door of the verify module: other modules import only what is exported here.
export type { DnsClient } from './verify.dns.ts';
export { createDnsClient } from './verify.dns.ts';
