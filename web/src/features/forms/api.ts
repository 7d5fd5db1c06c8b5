// The forms pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listForms = (api: Api, query: Query<'/forms'>) => api.get('/forms', { query });

export const getForm = (api: Api, id: string) => api.get('/forms/{id}', { path: { id } });

export const getFormEmbed = (api: Api, id: string) => api.get('/forms/{id}/embed', { path: { id } });

export const createForm = (api: Api, body: Body<'/forms', 'post'>) => api.post('/forms', { body });

export const updateForm = (api: Api, id: string, body: Body<'/forms/{id}', 'patch'>) =>
  api.patch('/forms/{id}', { path: { id }, body });

export const deleteForm = (api: Api, id: string) => api.delete('/forms/{id}', { path: { id } });
