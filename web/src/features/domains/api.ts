// The domains pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listDomains = (api: Api, query: Query<'/domains'>) => api.get('/domains', { query });

export const getDomain = (api: Api, id: string) => api.get('/domains/{id}', { path: { id } });

/** A new sender domain; the answer holds the DNS records to publish. */
export const createDomain = (api: Api, domain: string) => api.post('/domains', { body: { domain } });

/** Checks the domain's DNS records now. */
export const verifyDomain = (api: Api, id: string) => api.post('/domains/{id}/verify', { path: { id } });

export const deleteDomain = (api: Api, id: string) => api.delete('/domains/{id}', { path: { id } });

/** Turns receiving mail at the domain on or off (a verified domain only). */
export const setReceiving = (api: Api, id: string, receiving: boolean) =>
  api.patch('/domains/{id}', { path: { id }, body: { receiving } });

/** Sets the domain's custom tracking host (the domain or a subdomain of it), or removes it with null. */
export const setTrackingHost = (api: Api, id: string, trackingHost: string | null) =>
  api.patch('/domains/{id}', { path: { id }, body: { trackingHost } });

type DomainChange = Body<'/domains/{id}', 'patch'>;

/** Sets the most mail per hour to each mailbox provider; null removes a provider's limit. */
export const setProviderLimits = (api: Api, id: string, providerLimits: NonNullable<DomainChange['providerLimits']>) =>
  api.patch('/domains/{id}', { path: { id }, body: { providerLimits } });

/** Turns the warm-up on (day 1 today, or kept when it is on already) with a schedule, or off. */
export const setWarmup = (api: Api, id: string, warmup: NonNullable<DomainChange['warmup']>) =>
  api.patch('/domains/{id}', { path: { id }, body: { warmup } });

/** Each mailbox provider's rate now, and what went and was deferred in the last hour. */
export const getThroughput = (api: Api, id: string) => api.get('/domains/{id}/throughput', { path: { id } });

/** Mail handed over and deferred per hour and provider, the last `hours` hours (hours without mail left out). */
export const getThroughputSeries = (api: Api, id: string, hours: number) =>
  api.get('/domains/{id}/throughput/series', { path: { id }, query: { hours } });

/** The latest blocklist lookups of the domain, its tracking host and the sending IPs. */
export const listBlocklists = (api: Api, id: string) => api.get('/domains/{id}/blocklists', { path: { id } });

/** Looks the domain up in every blocklist now. */
export const checkBlocklists = (api: Api, id: string) => api.post('/domains/{id}/blocklists/check', { path: { id } });

/** Turns DMARC and TLS reports to this Herald on (the DMARC record's rua and the records to publish) or off. */
export const setDmarcReports = (api: Api, id: string, dmarcReports: boolean) =>
  api.patch('/domains/{id}', { path: { id }, body: { dmarcReports } });

/** The DMARC aggregate reports of the period (default: the last 30 days), summed up per day and by source. */
export const getDmarcSummary = (api: Api, id: string, query: Query<'/domains/{id}/dmarc'> = {}) =>
  api.get('/domains/{id}/dmarc', { path: { id }, query });

/** The TLS reports of the period (default: the last 30 days), the latest first. */
export const listTlsReports = (api: Api, id: string) => api.get('/domains/{id}/tls-reports', { path: { id } });
