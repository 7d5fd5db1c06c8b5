// The domains pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

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
