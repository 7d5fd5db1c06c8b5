// The inbound pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Query } from '../../shared/api/operations.ts';

export const listInbound = (api: Api, query: Query<'/inbound'>) => api.get('/inbound', { query });

export const getInbound = (api: Api, id: string) => api.get('/inbound/{id}', { path: { id } });

export const deleteInbound = (api: Api, id: string) => api.delete('/inbound/{id}', { path: { id } });

/** An attachment's bytes (the key goes in a header, so a plain link cannot fetch them). */
export const downloadAttachment = (api: Api, id: string, attachmentId: string) =>
  api.download(`/inbound/${encodeURIComponent(id)}/attachments/${encodeURIComponent(attachmentId)}`);

/** The message as received. */
export const downloadRaw = (api: Api, id: string) => api.download(`/inbound/${encodeURIComponent(id)}/raw`);
