// The contacts pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';
import type { Topic } from '../../shared/api/types.ts';

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

/** Queues a bulk action on contact ids or on the contacts matching a filter; the answer is the job to poll. */
export const startContactBulk = (api: Api, body: Body<'/contacts/bulk', 'post'>) =>
  api.post('/contacts/bulk', { body });

export const getContactBulk = (api: Api, id: string) => api.get('/contacts/bulk/{id}', { path: { id } });

/** The project's lists (STATIC segments), the targets of "add to list" and "remove from list". */
export async function listLists(api: Api) {
  const page = await api.get('/segments', { query: { limit: 100 } });
  return page.items.filter((segment) => segment.type === 'STATIC');
}

/** Every contact as CSV (GET /contacts/export), fetched with the session's key. */
export const downloadContactsCsv = (api: Api) => api.download('/contacts/export?format=csv');

/** The contact's latest events and emails (100 of each), for its timeline. */
export async function listContactHistory(api: Api, contactId: string) {
  const [events, emails] = await Promise.all([
    api.get('/events', { query: { contactId, limit: 100 } }),
    api.get('/emails', { query: { contactId, limit: 100 } }),
  ]);
  return { events: events.items, emails: emails.items };
}

/** The contact's choice for every topic of the project (its default where it chose nothing). */
export const listContactTopics = (api: Api, id: string) => api.get('/contacts/{id}/topics', { path: { id } });

export const setContactTopics = (api: Api, id: string, body: Body<'/contacts/{id}/topics', 'patch'>) =>
  api.patch('/contacts/{id}/topics', { path: { id }, body });

/** Every topic of the project (all pages), for the defaults next to a contact's choices. */
export async function listAllTopics(api: Api): Promise<Topic[]> {
  const topics: Topic[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.get('/topics', { query: { limit: 100, ...(cursor ? { cursor } : {}) } });
    topics.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return topics;
}

/** Double opt-in: NONE, PENDING (with the time the confirmation email was sent) or CONFIRMED. */
export const getContactConfirmation = (api: Api, id: string) =>
  api.get('/contacts/{id}/confirmation', { path: { id } });

/**
 * The contact's data-subject export (the contact, its events, its emails' metadata and topic choices), as a JSON file's
 * body.
 */
export async function exportContact(api: Api, id: string): Promise<Blob> {
  const data = await api.get('/contacts/{id}/export', { path: { id } });
  return new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
}

/** The contact's consent ledger, oldest first. */
export const getContactConsent = (api: Api, id: string) => api.get('/contacts/{id}/consent', { path: { id } });
