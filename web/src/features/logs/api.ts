// The project's request log: every API request, newest first, with both bodies (redacted).
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

export const listLogs = (api: Api, query: Query<'/logs'>) => api.get('/logs', { query });
export const getLog = (api: Api, id: string) => api.get('/logs/{id}', { path: { id } });
