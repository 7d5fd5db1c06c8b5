import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.types.ts';
import { AppError } from '../lib/errors.ts';
import { hashSecret, keyTypeOf, secretsEqual } from '../lib/keys.ts';
import type { KeyType } from '../lib/keys.ts';
import type { AuthInfo } from './types.ts';

/** Finds an active key by its hash, with its project (the projects module supplies it). */
export type FindKeyByHash = (hash: string) => Promise<{ key: { id: string; type: KeyType }; project: { id: string; disabled: boolean } } | null>;

interface CachedKey {
  auth: AuthInfo | null;
  disabled: boolean;
  expires: number;
}

const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 10_000;

/** Key lookups cached briefly per process, so a hot path costs no query per request. */
export class KeyCache {
  private readonly entries = new Map<string, CachedKey>();

  constructor(private readonly findKey: FindKeyByHash) {}

  async lookup(hash: string): Promise<CachedKey> {
    const hit = this.entries.get(hash);
    if (hit && hit.expires > Date.now()) return hit;
    const row = await this.findKey(hash);
    const entry: CachedKey = row
      ? { auth: { projectId: row.project.id, keyId: row.key.id, keyType: row.key.type }, disabled: row.project.disabled, expires: Date.now() + CACHE_TTL_MS }
      : { auth: null, disabled: false, expires: Date.now() + CACHE_TTL_MS };
    if (this.entries.size >= CACHE_MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, entry);
    return entry;
  }

  /** Drops everything: after a revoke or a project change, this process sees it at once. */
  clear(): void {
    this.entries.clear();
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

const unauthorized = (message: string) =>
  new AppError('UNAUTHORIZED', message, { suggestion: 'Send Authorization: Bearer <key> with a project key (sk_ or pk_).' });

/** Resolves the caller of every route by its `auth` mode: admin token, project key, or none. */
export function registerAuth(app: FastifyInstance, ctx: AppContext, cache: KeyCache): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config.auth ?? 'none';
    if (mode === 'none') return;
    const token = bearer(request);
    if (mode === 'admin') {
      if (!token || !secretsEqual(token, ctx.secrets.adminToken)) {
        throw new AppError('UNAUTHORIZED', token ? 'Invalid admin token' : 'Missing admin token', {
          suggestion: 'The admin API takes Authorization: Bearer <ADMIN_TOKEN> (the ADMIN_TOKEN setting, or DATA_DIR/admin-token); project keys do not work here.',
        });
      }
      return;
    }
    if (!token) throw unauthorized(request.headers.authorization ? 'Malformed Authorization header' : 'Missing Authorization header');
    const claimed = keyTypeOf(token);
    if (!claimed) throw unauthorized('Invalid API key');
    const found = await cache.lookup(hashSecret(token));
    if (!found.auth) throw unauthorized('Invalid or revoked API key');
    if (found.disabled) throw new AppError('PROJECT_DISABLED', 'This project is disabled');
    if (mode === 'secret' && found.auth.keyType !== 'secret') {
      throw new AppError('FORBIDDEN', 'Public keys (pk_) can only call POST /v1/track', { suggestion: 'Use a secret key (sk_) from your server.' });
    }
    request.auth = found.auth;
  });
}

/** The project of an authenticated request (routes with auth `secret` or `public`). */
export function projectOf(request: FastifyRequest): string {
  if (!request.auth) throw new AppError('UNAUTHORIZED', 'Missing Authorization header');
  return request.auth.projectId;
}
