// The templates pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listTemplates = (api: Api, query: Query<'/templates'>) => api.get('/templates', { query });

export const getTemplate = (api: Api, id: string) => api.get('/templates/{id}', { path: { id } });

export const createTemplate = (api: Api, body: Body<'/templates', 'post'>) => api.post('/templates', { body });

export const updateTemplate = (api: Api, id: string, body: Body<'/templates/{id}', 'patch'>) =>
  api.patch('/templates/{id}', { path: { id }, body });

export const deleteTemplate = (api: Api, id: string) => api.delete('/templates/{id}', { path: { id } });

/** A subject and body rendered by the server with sample data, as a send would render them. */
export const previewTemplate = (api: Api, body: Body<'/templates/preview', 'post'>) =>
  api.post('/templates/preview', { body });

/** A real transactional send (POST /v1/send): the test of a template as it is in the editor. */
export const sendTestEmail = (api: Api, body: Body<'/v1/send', 'post'>) => api.post('/v1/send', { body });

/** The project's contact with this address, or null. */
export const findContactByEmail = async (api: Api, email: string) =>
  (await api.get('/contacts', { query: { email, limit: 1 } })).items[0] ?? null;
