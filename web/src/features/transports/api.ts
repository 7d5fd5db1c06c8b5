// The transports pages' and the routing editor's calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listTransports = (api: Api, query: Query<'/transports'>) => api.get('/transports', { query });

/** Every transport, for the routing editor's choices (a project has a few). */
export const listAllTransports = (api: Api) => api.get('/transports', { query: { limit: 100 } });

export const getTransport = (api: Api, id: string) => api.get('/transports/{id}', { path: { id } });

export const createTransport = (api: Api, body: Body<'/transports', 'post'>) => api.post('/transports', { body });

export const updateTransport = (api: Api, id: string, body: Body<'/transports/{id}', 'patch'>) =>
  api.patch('/transports/{id}', { path: { id }, body });

/** Deletes a transport; a 409 names the routing that still uses it. */
export const deleteTransport = (api: Api, id: string) => api.delete('/transports/{id}', { path: { id } });

/** Opens a connection (and AUTH) with the transport now: whether it worked, and what the server said. */
export const testTransport = (api: Api, id: string) => api.post('/transports/{id}/test', { path: { id } });

export const getRouting = (api: Api) => api.get('/routing');

export const saveRouting = (api: Api, body: Body<'/routing', 'put'>) => api.put('/routing', { body });

/** Which transport an email from `from` to `to` would take now, and why. */
export const testRoute = (api: Api, body: Body<'/routing/test', 'post'>) => api.post('/routing/test', { body });
