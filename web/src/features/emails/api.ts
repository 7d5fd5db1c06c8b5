// The email log's calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

export const listEmails = (api: Api, query: Query<'/emails'>) => api.get('/emails', { query });

export const getEmail = (api: Api, id: string) => api.get('/emails/{id}', { path: { id } });

/** The complete message: the outbox's copy, or built again from what is stored (other transports). */
export const getEmailSource = (api: Api, id: string) => api.get('/emails/{id}/source', { path: { id } });

/** Subject, addresses and bodies as the recipient reads them, rendered again from what is stored. */
export const getEmailContent = (api: Api, id: string) => api.get('/emails/{id}/content', { path: { id } });

/**
 * How an email's source reads on the pages: `SMTP` (sent through the SMTP relay) stays upper case, the others do not.
 */
export const sourceLabel = (type: string): string => (type === 'SMTP' ? 'SMTP' : type.toLowerCase());

export interface SourceNames {
  campaigns: Map<string, string>;
  workflows: Map<string, string>;
}

/** Names of the campaigns and workflows emails come from (the newest 100 of each): two requests for any page. */
export async function listSourceNames(api: Api): Promise<SourceNames> {
  const [campaigns, workflows] = await Promise.all([
    api.get('/campaigns', { query: { limit: 100 } }),
    api.get('/workflows', { query: { limit: 100 } }),
  ]);
  return {
    campaigns: new Map(campaigns.items.map((c) => [c.id, c.name])),
    workflows: new Map(workflows.items.map((w) => [w.id, w.name])),
  };
}

/** Moves a SCHEDULED email to another time. */
export const rescheduleEmail = (api: Api, id: string, scheduledAt: string) =>
  api.patch('/emails/{id}', { path: { id }, body: { scheduledAt } });

/** Cancels a SCHEDULED, QUEUED or DEFERRED email. */
export const cancelEmail = (api: Api, id: string) => api.post('/emails/{id}/cancel', { path: { id } });

/** What happened to the email, in order, as it was recorded. */
export const getEmailTimeline = (api: Api, id: string) => api.get('/emails/{id}/timeline', { path: { id } });

/** A signed link to the email's page in a browser, working for `expiresIn` (`7d`, `12h`, `30m`). */
export const shareEmail = (api: Api, id: string, expiresIn: string) =>
  api.post('/emails/{id}/share', { path: { id }, body: { expiresIn } });
