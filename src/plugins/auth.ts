import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.types.ts';
import { AppError } from '../lib/errors.ts';
import { admittedScopes, hashSecret, keyTypeOf, secretsEqual } from '../lib/keys.ts';
import type { KeyScope, KeyType } from '../lib/keys.ts';
import type { AuthInfo, AuthMode } from './types.ts';

/** The fields of a key the auth plugin decides on. */
export interface AuthKey {
  id: string;
  type: KeyType;
  scope: KeyScope;
  domainIds: string[] | null;
  expiresAt: Date | null;
}

/** Finds an unrevoked key by its hash, with its project (the projects module supplies it). */
export type FindKeyByHash = (hash: string) => Promise<{ key: AuthKey; project: { id: string; disabled: boolean } } | null>;

interface CachedKey {
  auth: AuthInfo | null;
  disabled: boolean;
  /** When the key itself expires (ms), checked on every request so the cache cannot extend it. */
  keyExpiresAt: number | null;
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
      ? {
        auth: { projectId: row.project.id, keyId: row.key.id, keyType: row.key.type, scope: row.key.scope, domainIds: row.key.domainIds },
        disabled: row.project.disabled, keyExpiresAt: row.key.expiresAt?.getTime() ?? null, expires: Date.now() + CACHE_TTL_MS,
      }
      : { auth: null, disabled: false, keyExpiresAt: null, expires: Date.now() + CACHE_TTL_MS };
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

/** What a route declares about its callers: the auth mode and, for project keys, the scopes besides `full`. */
export interface RouteAccess {
  method: string;
  url: string;
  auth: AuthMode;
  scope: KeyScope | readonly KeyScope[] | undefined;
}

const declaredAccess = new WeakMap<FastifyInstance, RouteAccess[]>();

/** Every route of the app with what it declares (test/system/http/route-scopes.test.ts holds each to a scope). */
export function routeAccessOf(app: FastifyInstance): RouteAccess[] {
  return declaredAccess.get(app) ?? [];
}

/** Scopes whose every route is public: third-party plugins serving files (the dashboard's assets, Swagger UI). */
const publicScopes = new WeakSet<object>();

/** Whether `instance` is a public scope or inside one (fastify's child instances inherit from their parent). */
function inPublicScope(instance: object): boolean {
  for (let scope: object | null = instance; scope; scope = Object.getPrototypeOf(scope) as object | null) if (publicScopes.has(scope)) return true;
  return false;
}

/**
 * Registers a plugin of someone else's whose routes are all public files and take no key, so they carry auth `none`
 * without declaring it (they cannot: the plugin makes them); route-scopes.test.ts lists every one of them.
 */
export async function registerPublicPlugin<Options extends FastifyPluginOptions>(app: FastifyInstance, plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>, options: Options): Promise<void> {
  await app.register(async (scope) => {
    publicScopes.add(scope);
    await scope.register(plugin, options);
  });
}

/**
 * Holds every route to declaring its callers (`config.auth`): one that does not is refused at registration, naming the
 * route, so no route is served without a key by omission. Register before any route; records what each declares.
 */
export function declareRouteAccess(app: FastifyInstance): void {
  const routes: RouteAccess[] = [];
  declaredAccess.set(app, routes);
  app.addHook('onRoute', function checkAccess(route) {
    const methods = [route.method].flat();
    const auth = route.config?.auth ?? (inPublicScope(this) ? 'none' : undefined);
    if (!auth) {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares no auth: set config.auth to 'secret', 'public', 'admin', or 'none' for a route anyone may call`);
    }
    route.config = { ...route.config, auth };
    for (const method of methods) routes.push({ method, url: route.url, auth, scope: route.config.scope });
  });
}

/** Resolves the caller of every route by its `auth` mode: admin token, project key, or none. */
export function registerAuth(app: FastifyInstance, ctx: AppContext, cache: KeyCache): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    // Every route declares its mode (declareRouteAccess); only the not-found handler has none.
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
    if (found.keyExpiresAt !== null && found.keyExpiresAt <= Date.now()) throw unauthorized(`This API key expired at ${new Date(found.keyExpiresAt).toISOString()}`);
    if (found.disabled) throw new AppError('PROJECT_DISABLED', 'This project is disabled');
    if (mode === 'secret' && found.auth.keyType !== 'secret') {
      throw new AppError('FORBIDDEN', 'Public keys (pk_) can only call POST /v1/track', { suggestion: 'Use a secret key (sk_) from your server.' });
    }
    requireScope(request, found.auth);
    request.auth = found.auth;
  });
}

const scopeRefusals: Record<Exclude<KeyScope, 'full'>, string> = {
  read: 'This key has the read scope: it can only call GET routes',
  sending: 'This key has the sending scope: it can only send (/v1/send, /v1/send/batch, the Resend email routes, SMTP), track, verify, subscribe and read an email (GET /emails/{id})',
};

/** The one place scopes are enforced: a restricted key passes only routes that declare its scope (reads only by GET). */
function requireScope(request: FastifyRequest, auth: AuthInfo): void {
  if (auth.scope === 'full') return;
  // A read key passes GET routes that admit it, and the few POST routes that declare read explicitly because they
  // only read for it (POST /mcp: its tools are GETs for a read key); test/system/http/route-scopes.test.ts lists them.
  if (admittedScopes(request.routeOptions.config.scope).includes(auth.scope)) return;
  throw new AppError('FORBIDDEN', `${scopeRefusals[auth.scope]}; ${request.method} ${request.routeOptions.url ?? request.url} needs a broader key`, {
    suggestion: 'Use a key with the full scope, or create one with the scope this route needs (POST /api-keys).',
  });
}

/** The project of an authenticated request (routes with auth `secret` or `public`). */
export function projectOf(request: FastifyRequest): string {
  if (!request.auth) throw new AppError('UNAUTHORIZED', 'Missing Authorization header');
  return request.auth.projectId;
}

/** The sender domains the calling key is restricted to (null: any verified domain of its project). */
export function senderDomainsOf(request: FastifyRequest): string[] | null {
  return request.auth?.domainIds ?? null;
}
