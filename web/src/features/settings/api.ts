// A project's API keys, managed with the admin token.
import type { Api } from '../../shared/api/client.ts';

export const listKeys = (admin: Api, projectId: string) =>
  admin.get('/admin/projects/{id}/keys', { path: { id: projectId } });

/** A new key; the answer carries the key itself, shown once. */
export const createKey = (admin: Api, projectId: string, type: 'secret' | 'public') =>
  admin.post('/admin/projects/{id}/keys', { path: { id: projectId }, body: { type } });

export const revokeKey = (admin: Api, projectId: string, keyId: string) =>
  admin.delete('/admin/projects/{id}/keys/{keyId}', { path: { id: projectId, keyId } });
