import type { KeyType } from '../lib/keys.ts';

/** Who may call a route: a project key of the given kind, the admin token, or anyone. */
export type AuthMode = 'secret' | 'public' | 'admin' | 'none';

export interface AuthInfo {
  projectId: string;
  keyId: string;
  keyType: KeyType;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** `links`: the unauthenticated links inside mail, limited per client address (plugins/rate-limit.ts). */
    rateLimit?: 'links';
    /** What the route serves to browsers, for its Content-Security-Policy (plugins/security-headers.ts). */
    page?: 'dashboard' | 'docs' | 'hosted';
  }
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
}
