// A project's API keys, managed with the admin token.
import type { Api } from '../../shared/api/client.ts';

/** A new key (a session key when `session`); the answer carries the key itself, shown once. */
export const createKey = (
  admin: Api,
  projectId: string,
  type: 'secret' | 'public',
  options: { name?: string; session?: boolean } = {},
) => admin.post('/admin/projects/{id}/keys', { path: { id: projectId }, body: { type, ...options } });

/**
 * Revokes a session key with the key itself, in a request that outlives the page (`keepalive`), so closing
 * the tab ends the key too.
 */
export function revokeSessionKeyOnLeave(key: string): void {
  void fetch('/api-keys/current', {
    method: 'DELETE',
    keepalive: true,
    headers: { Authorization: `Bearer ${key}` },
  }).catch(() => undefined);
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

/** The project's keys, with the signed-in (full) key. */
export const listOwnKeys = (api: Api) => api.get('/api-keys');

export interface NewKeyOptions {
  name?: string;
  scope?: 'full' | 'sending' | 'read';
  domainIds?: string[];
  expiresAt?: string;
}

/** A new key of the signed-in key's project; the answer carries the key itself, shown once. */
export const createOwnKey = (api: Api, type: 'secret' | 'public', options: NewKeyOptions) =>
  api.post('/api-keys', { body: { type, ...options } });

export const revokeOwnKey = (api: Api, keyId: string) => api.delete('/api-keys/{id}', { path: { id: keyId } });

/** The verified sender domains a key can be restricted to. */
export const listVerifiedDomains = (api: Api) => api.get('/domains', { query: { status: 'VERIFIED', limit: 100 } });

/** The project's settings (time zone, tracking, double opt-in, reputation thresholds). */
export const getSettings = (api: Api) => api.get('/settings');

export interface SettingsChange {
  name?: string;
  timezone?: string;
  tracking?: 'ALL' | 'MARKETING_ONLY' | 'NONE';
  doubleOptIn?: { templateId: string } | null;
  /** At most `max` marketing emails per contact in any `per` ("7d"); null: no cap. */
  frequencyCap?: { max: number; per: string } | null;
  maxBounceRate?: number;
  maxComplaintRate?: number;
  /** An owner's choice, with the session of a person: members must sign in with two-factor. */
  requireTwoFactor?: boolean;
  /** The sender of sends and campaigns that name none ("Acme <hello@acme.com>"); null: none. */
  defaultFrom?: string | null;
}

export const updateSettings = (api: Api, change: SettingsChange) => api.patch('/settings', { body: change });

/** Templates to choose the double opt-in confirmation from. */
export const listTemplates = (api: Api) => api.get('/templates', { query: { limit: 100 } });
