// A project's API keys, managed with the admin token.
import type { Api } from '../../shared/api/client.ts';

export const listKeys = (admin: Api, projectId: string) =>
  admin.get('/admin/projects/{id}/keys', { path: { id: projectId } });

/** A new key (a session key when `session`); the answer carries the key itself, shown once. */
export const createKey = (admin: Api, projectId: string, type: 'secret' | 'public', options: { name?: string; session?: boolean } = {}) =>
  admin.post('/admin/projects/{id}/keys', { path: { id: projectId }, body: { type, ...options } });

/**
 * Revokes a session key with the key itself, in a request that outlives the page (`keepalive`), so closing
 * the tab ends the key too.
 */
export function revokeSessionKeyOnLeave(key: string): void {
  void fetch('/api-keys/current', { method: 'DELETE', keepalive: true, headers: { Authorization: `Bearer ${key}` } }).catch(() => undefined);
}

export const revokeKey = (admin: Api, projectId: string, keyId: string) =>
  admin.delete('/admin/projects/{id}/keys/{keyId}', { path: { id: projectId, keyId } });

/** The signed-in key and its project (id and name). */
export const getCurrentKey = (api: Api) => api.get('/api-keys/current');

/** One verified sender domain of the project, for the sample request (null when there is none). */
export async function firstVerifiedDomain(api: Api): Promise<string | null> {
  const page = await api.get('/domains', { query: { status: 'VERIFIED', limit: 1 } });
  return page.items[0]?.domain ?? null;
}
