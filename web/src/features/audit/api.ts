// The project's audit log: who changed what, newest first.
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

export const listAuditLog = (api: Api, query: Query<'/audit-log'>) => api.get('/audit-log', { query });
