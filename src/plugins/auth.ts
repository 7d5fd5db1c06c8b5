import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyPluginOptions,
  FastifyRequest,
} from 'fastify';
import type { AppContext } from '../context.types.ts';
import { AppError } from '../lib/errors.ts';
import { admittedScopes, hashSecret, keyTypeOf, secretsEqual } from '../lib/keys.ts';
import type { KeyScope, KeyType } from '../lib/keys.ts';
import { readCookie } from '../lib/cookies.ts';
import { currentOrigin, newOrigin, runWithOrigin, type Actor } from '../lib/request-origin.ts';
import { aRole, roleRank, type AuthInfo, type AuthMode, type Role, type SignedIn } from './types.ts';

/** The session cookie of signed-in people. */
export const SESSION_COOKIE = 'herald_session';
/** The header naming the project a signed-in person works in. */
export const PROJECT_HEADER = 'herald-project';

/**
 * What the auth plugin asks of people's sessions (the accounts module supplies it; nothing is cached: a revoke is
 * immediate).
 */
export interface SessionLookup {
  /** The live session of a cookie's token (marked active), or null. */
  findSession(token: string): Promise<SignedIn | null>;
  /** The project, and the user's role in it (null: not a member); null when there is no such project. */
  projectAccess(
    projectId: string,
    userId: string,
  ): Promise<{ disabled: boolean; role: Role | null; requireTwoFactor: boolean } | null>;
}

/** The fields of a key the auth plugin decides on. */
export interface AuthKey {
  id: string;
  type: KeyType;
  scope: KeyScope;
  domainIds: string[] | null;
  expiresAt: Date | null;
  name: string;
  prefix: string;
}

/** Finds an unrevoked key by its hash, with its project (the projects module supplies it). */
export type FindKeyByHash = (
  hash: string,
) => Promise<{ key: AuthKey; project: { id: string; disabled: boolean } } | null>;

interface CachedKey {
  auth: AuthInfo | null;
  /** Who the key is in the audit log. */
  actor: Actor | null;
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
          auth: {
            projectId: row.project.id,
            keyId: row.key.id,
            keyType: row.key.type,
            scope: row.key.scope,
            domainIds: row.key.domainIds,
            member: null,
          },
          actor: { type: 'key', id: row.key.id, label: `${row.key.name} (${row.key.prefix}…)` },
          disabled: row.project.disabled,
          keyExpiresAt: row.key.expiresAt?.getTime() ?? null,
          expires: Date.now() + CACHE_TTL_MS,
        }
      : { auth: null, actor: null, disabled: false, keyExpiresAt: null, expires: Date.now() + CACHE_TTL_MS };
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
  new AppError('UNAUTHORIZED', message, {
    suggestion: 'Send Authorization: Bearer <key> with a project key (sk_ or pk_).',
  });

/**
 * What a route declares about its callers: the auth mode, the key scopes besides `full`, and the least role of a
 * member.
 */
export interface RouteAccess {
  method: string;
  url: string;
  auth: AuthMode;
  scope: KeyScope | readonly KeyScope[] | undefined;
  role: Role | undefined;
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
  for (let scope: object | null = instance; scope; scope = Object.getPrototypeOf(scope) as object | null)
    if (publicScopes.has(scope)) return true;
  return false;
}

/**
 * Registers a plugin of someone else's whose routes are all public files and take no key, so they carry auth `none`
 * without declaring it (they cannot: the plugin makes them); route-scopes.test.ts lists every one of them.
 */
export async function registerPublicPlugin<Options extends FastifyPluginOptions>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
  options: Options,
): Promise<void> {
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
      throw new Error(
        `Route ${methods.join(',')} ${route.url} declares no auth: set config.auth to 'secret', 'public', ` +
          "'admin', 'member', 'session', or 'none' for a route anyone may call",
      );
    }
    route.config = { ...route.config, auth };
    for (const method of methods)
      routes.push({ method, url: route.url, auth, scope: route.config.scope, role: route.config.role });
  });
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Where a request comes from: the client address, its user agent and the request id. */
export function clientOf(request: FastifyRequest): { ip: string; userAgent: string | null; requestId: string } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null, requestId: request.id };
}

/**
 * Herald's own origin for a browser's request: PUBLIC_URL's, or without PUBLIC_URL the origin the request was sent
 * to. A cookie request that changes something, and a sign-in, must come from it when the browser names one.
 */
export function checkOwnOrigin(ctx: AppContext, request: FastifyRequest, refusal: string): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const allowed = ctx.config.publicUrlConfigured
    ? new URL(ctx.config.publicUrl).origin
    : `${request.protocol}://${request.host}`;
  if (origin !== allowed) {
    const suggestion = `Use Herald from ${allowed}.`;
    throw new AppError('CSRF', `${refusal} from ${origin.slice(0, 200)}`, { suggestion });
  }
}

/**
 * Resolves the caller of every route by its `auth` mode: the admin token, a project key, or a signed-in person's
 * session cookie (with `Herald-Project`, a CSRF token on unsafe methods, and the route's least role); a request with
 * both a key and a cookie is decided by the key. Every request runs with its origin (actor, address, request id) known
 * to the code that records changes.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext, cache: KeyCache, sessions: SessionLookup): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('signedIn', null);
  app.decorateRequest('origin', null);
  app.addHook('onRequest', (request, _reply, done) => {
    request.origin = newOrigin(clientOf(request));
    runWithOrigin(request.origin, done);
  });
  app.addHook('onRequest', async (request) => {
    // Every route declares its mode (declareRouteAccess); only the not-found handler has none.
    const mode = request.routeOptions.config.auth ?? 'none';
    if (mode === 'none') return;
    const token = bearer(request);
    const cookie = token ? null : readCookie(request.headers.cookie, SESSION_COOKIE);
    if (mode === 'admin') return admitAdmin(request, ctx, token, cookie, sessions);
    if (mode === 'session' || mode === 'member') {
      if (token)
        throw new AppError(
          'FORBIDDEN',
          `${request.method} ${request.routeOptions.url} is for signed-in people: keys cannot call it`,
          { suggestion: 'Sign in (POST /auth/sign-in) and send the session cookie.' },
        );
      const signedIn = await signedInOf(request, ctx, cookie, sessions);
      if (mode === 'member') request.auth = await memberAuth(request, signedIn, sessions);
      return;
    }
    if (!token && cookie) {
      request.auth = await memberAuth(request, await signedInOf(request, ctx, cookie, sessions), sessions);
      return;
    }
    if (!token)
      throw unauthorized(
        request.headers.authorization ? 'Malformed Authorization header' : 'Missing Authorization header',
      );
    const claimed = keyTypeOf(token);
    if (!claimed) throw unauthorized('Invalid API key');
    const found = await cache.lookup(hashSecret(token));
    if (!found.auth) throw unauthorized('Invalid or revoked API key');
    if (found.keyExpiresAt !== null && found.keyExpiresAt <= Date.now())
      throw unauthorized(`This API key expired at ${new Date(found.keyExpiresAt).toISOString()}`);
    if (found.disabled) throw new AppError('PROJECT_DISABLED', 'This project is disabled');
    if (mode === 'secret' && found.auth.keyType !== 'secret') {
      throw new AppError('FORBIDDEN', 'Public keys (pk_) can only call POST /v1/track', {
        suggestion: 'Use a secret key (sk_) from your server.',
      });
    }
    requireScope(request, found.auth);
    request.auth = found.auth;
    currentOrigin().actor = found.actor!;
  });
}

/** The admin API: the admin token, or the session of an instance admin. */
async function admitAdmin(
  request: FastifyRequest,
  ctx: AppContext,
  token: string | null,
  cookie: string | null,
  sessions: SessionLookup,
): Promise<void> {
  if (token || !cookie) {
    if (!token || !secretsEqual(token, ctx.secrets.adminToken)) {
      throw new AppError('UNAUTHORIZED', token ? 'Invalid admin token' : 'Missing admin token', {
        suggestion:
          'The admin API takes Authorization: Bearer <ADMIN_TOKEN> (the ADMIN_TOKEN setting, or DATA_DIR/admin-' +
          'token), or the session of an instance admin; project keys do not work here.',
      });
    }
    currentOrigin().actor = { type: 'admin', id: null, label: 'admin token' };
    return;
  }
  const signedIn = await signedInOf(request, ctx, cookie, sessions);
  if (!signedIn.user.isAdmin)
    throw new AppError('FORBIDDEN', 'Only instance admins may use the admin API', {
      suggestion: 'Ask an instance admin, or use the admin token.',
    });
}

/** The signed-in person of a session cookie, with the CSRF checks of an unsafe method; 401 without a live session. */
async function signedInOf(
  request: FastifyRequest,
  ctx: AppContext,
  cookie: string | null,
  sessions: SessionLookup,
): Promise<SignedIn> {
  const signedIn = cookie ? await sessions.findSession(cookie) : null;
  if (!signedIn) {
    throw new AppError('UNAUTHORIZED', cookie ? 'Your session has ended: sign in again' : 'Not signed in', {
      suggestion: 'Sign in with POST /auth/sign-in, or send Authorization: Bearer <key>.',
    });
  }
  if (UNSAFE_METHODS.has(request.method)) checkCsrf(request, ctx, signedIn);
  request.signedIn = signedIn;
  currentOrigin().actor = { type: 'user', id: signedIn.user.id, label: signedIn.user.email };
  return signedIn;
}

/**
 * A cookie request that changes something must carry the session's CSRF token in X-CSRF-Token, and come from
 * Herald's own origin when the browser names one: PUBLIC_URL's, or without PUBLIC_URL the origin the request was
 * sent to.
 */
function checkCsrf(request: FastifyRequest, ctx: AppContext, signedIn: SignedIn): void {
  const header = request.headers['x-csrf-token'];
  if (typeof header !== 'string' || !secretsEqual(header, signedIn.csrfToken)) {
    throw new AppError(
      'CSRF',
      'Missing or wrong X-CSRF-Token: a signed-in request that changes something must send the token of its session',
      {
        suggestion: 'Read csrfToken from GET /auth/session and send it as X-CSRF-Token.',
      },
    );
  }
  checkOwnOrigin(ctx, request, 'A Herald session may not be used');
}

/** A signed-in person's access to the project in Herald-Project: their membership, or owner for an instance admin. */
async function memberAuth(request: FastifyRequest, signedIn: SignedIn, sessions: SessionLookup): Promise<AuthInfo> {
  const header = request.headers[PROJECT_HEADER];
  const projectId = typeof header === 'string' ? header.trim().toLowerCase() : '';
  if (!projectId)
    throw new AppError('BAD_REQUEST', 'Missing Herald-Project header: name the project this request is for', {
      suggestion: 'Send Herald-Project: <projectId> (GET /auth/session lists yours).',
    });
  const access = /^[0-9a-f-]{36}$/.test(projectId) ? await sessions.projectAccess(projectId, signedIn.user.id) : null;
  const role = access?.role ?? (access && signedIn.user.isAdmin ? 'owner' : null);
  if (!access || !role) throw new AppError('NOT_FOUND', 'Project not found');
  if (access.disabled) throw new AppError('PROJECT_DISABLED', 'This project is disabled');
  if (access.requireTwoFactor && !signedIn.user.twoFactor) {
    throw new AppError(
      'TWO_FACTOR_REQUIRED',
      'This project requires two-factor authentication: set it up before anything else',
      {
        status: 403,
        suggestion: 'Set up two-factor on your profile (POST /auth/2fa/setup, then POST /auth/2fa/enable).',
      },
    );
  }
  const needed = request.routeOptions.config.role ?? 'owner';
  if (roleRank(role) < roleRank(needed)) {
    throw new AppError(
      'FORBIDDEN',
      `You are ${aRole(role)} of this project: ` +
        `${request.method} ${request.routeOptions.url} needs the ${needed} role or above`,
      {
        suggestion: 'Ask an owner or admin of the project for a role that allows it.',
      },
    );
  }
  return {
    projectId,
    keyId: null,
    keyType: 'secret',
    scope: 'full',
    domainIds: null,
    member: { user: signedIn.user, role },
  };
}

const scopeRefusals: Record<Exclude<KeyScope, 'full'>, string> = {
  read: 'This key has the read scope: it can only call GET routes',
  sending:
    'This key has the sending scope: it can only send (/v1/send, /v1/send/batch, the Resend email routes, SMTP), ' +
    'track, verify, subscribe and read an email (GET /emails/{id})',
};

/**
 * The one place scopes are enforced: a restricted key passes only routes that declare its scope (reads only by GET).
 */
function requireScope(request: FastifyRequest, auth: AuthInfo): void {
  if (auth.scope === 'full') return;
  // A read key passes GET routes that admit it, and the few POST routes that declare read explicitly because they
  // only read for it (POST /mcp: its tools are GETs for a read key); test/system/http/route-scopes.test.ts lists them.
  if (admittedScopes(request.routeOptions.config.scope).includes(auth.scope)) return;
  throw new AppError(
    'FORBIDDEN',
    `${scopeRefusals[auth.scope]}; ${request.method} ${request.routeOptions.url ?? request.url} needs a broader key`,
    {
      suggestion: 'Use a key with the full scope, or create one with the scope this route needs (POST /api-keys).',
    },
  );
}

/** The project of an authenticated request (routes with auth `secret`, `public` or `member`). */
export function projectOf(request: FastifyRequest): string {
  if (!request.auth) throw new AppError('UNAUTHORIZED', 'Missing Authorization header');
  return request.auth.projectId;
}

/** The sender domains the calling key is restricted to (null: any verified domain of its project). */
export function senderDomainsOf(request: FastifyRequest): string[] | null {
  return request.auth?.domainIds ?? null;
}
