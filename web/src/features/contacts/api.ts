// The contacts pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listContacts = (api: Api, query: Query<'/contacts'>) => api.get('/contacts', { query });

export const getContact = (api: Api, id: string) => api.get('/contacts/{id}', { path: { id } });

export const createContact = (api: Api, body: Body<'/contacts', 'post'>) => api.post('/contacts', { body });

/** PATCH merges `data` key by key: a key set to null is removed. */
export const updateContact = (api: Api, id: string, body: Body<'/contacts/{id}', 'patch'>) =>
  api.patch('/contacts/{id}', { path: { id }, body });

export const deleteContact = (api: Api, id: string) => api.delete('/contacts/{id}', { path: { id } });

/** Starts an import of CSV text (a header row with `email`); the answer is the job to poll. */
export const importContactsCsv = (api: Api, csv: string) =>
  api.post('/contacts/import', { rawBody: { text: csv, contentType: 'text/csv' } });

export const getContactImport = (api: Api, id: string) => api.get('/contacts/import/{id}', { path: { id } });

/** The contact's latest events and emails (100 of each), for its timeline. */
export async function listContactHistory(api: Api, contactId: string) {
  const [events, emails] = await Promise.all([
    api.get('/events', { query: { contactId, limit: 100 } }),
    api.get('/emails', { query: { contactId, limit: 100 } }),
  ]);
  return { events: events.items, emails: emails.items };
}
