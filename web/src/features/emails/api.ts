// The email log's calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

export const listEmails = (api: Api, query: Query<'/emails'>) => api.get('/emails', { query });

export const getEmail = (api: Api, id: string) => api.get('/emails/{id}', { path: { id } });

/** The raw message as the outbox transport wrote it. */
export const getEmailSource = (api: Api, id: string) => api.get('/emails/{id}/source', { path: { id } });

/** The `email.*` events of one email, from its contact's latest 100 events. */
export async function listEmailEvents(api: Api, email: { id: string; contactId: string | null }) {
  if (!email.contactId) return [];
  const events = await api.get('/events', { query: { contactId: email.contactId, limit: 100 } });
  return events.items.filter((e) => e.name.startsWith('email.') && e.data.emailId === email.id);
}
