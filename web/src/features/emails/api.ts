// The email log's calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

export const listEmails = (api: Api, query: Query<'/emails'>) => api.get('/emails', { query });

export const getEmail = (api: Api, id: string) => api.get('/emails/{id}', { path: { id } });

/** The complete message: the outbox's copy, or built again from what is stored (other transports). */
export const getEmailSource = (api: Api, id: string) => api.get('/emails/{id}/source', { path: { id } });

/** Subject, addresses and bodies as the recipient reads them, rendered again from what is stored. */
export const getEmailContent = (api: Api, id: string) => api.get('/emails/{id}/content', { path: { id } });

/** The `email.*` events of one email, from its contact's latest 100 events. */
export async function listEmailEvents(api: Api, email: { id: string; contactId: string | null }) {
  if (!email.contactId) return [];
  const events = await api.get('/events', { query: { contactId: email.contactId, limit: 100 } });
  return events.items.filter((e) => e.name.startsWith('email.') && e.data.emailId === email.id);
}

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
