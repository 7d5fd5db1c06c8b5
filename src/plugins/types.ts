import type { KeyScope, KeyType } from '../lib/keys.ts';

/** Who may call a route: a project key of the given kind, the admin token, or anyone. */
export type AuthMode = 'secret' | 'public' | 'admin' | 'none';

export interface AuthInfo {
  projectId: string;
  keyId: string;
  keyType: KeyType;
  scope: KeyScope;
  /** The sender domains this key may send from; null: any verified domain of its project. */
  domainIds: string[] | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route declares it (`none` for one anyone may call): a route without it is refused when registered. */
    auth?: AuthMode;
    /**
     * Which restricted keys may call the route besides `full` ones: `read` (GET routes only), `sending`, or both.
     * Every route taking a project key declares it (test/system/http/route-scopes.test.ts); undeclared means `full` only.
     */
    scope?: KeyScope | readonly KeyScope[];
    /** `links`: the unauthenticated links inside mail, limited per client address (plugins/rate-limit.ts). */
    rateLimit?: 'links';
    /** What the route serves to browsers, for its Content-Security-Policy (plugins/security-headers.ts). */
    page?: 'dashboard' | 'docs' | 'hosted';
  }
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
}
