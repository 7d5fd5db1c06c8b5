// The topics pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listTopics = (api: Api, query: Query<'/topics'>) => api.get('/topics', { query });

export const getTopic = (api: Api, id: string) => api.get('/topics/{id}', { path: { id } });

export const createTopic = (api: Api, body: Body<'/topics', 'post'>) => api.post('/topics', { body });

/** Name and description; the default cannot change after create. */
export const updateTopic = (api: Api, id: string, body: Body<'/topics/{id}', 'patch'>) =>
  api.patch('/topics/{id}', { path: { id }, body });

export const deleteTopic = (api: Api, id: string) => api.delete('/topics/{id}', { path: { id } });
