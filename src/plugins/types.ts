import type { KeyScope, KeyType } from '../lib/keys.ts';
import type { Origin } from '../lib/request-origin.ts';

/**
 * Who may call a route: a project key of the given kind or a signed-in member (`secret`, `public`), the admin token or
 * an instance admin (`admin`), a signed-in member only, never a key (`member`), a signed-in person with no project
 * (`session`), or anyone (`none`).
 */
export type AuthMode = 'secret' | 'public' | 'admin' | 'member' | 'session' | 'none';

/** A project role: each can do what the ones after it can, and more. */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** How much a role may do: higher is more (owner highest). */
export const roleRank = (role: Role): number => ROLES.length - ROLES.indexOf(role);

/** A role as a sentence names it: "an admin", "a viewer". */
export const aRole = (role: Role): string => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

/** A person signed in through a session cookie. */
export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  twoFactor: boolean;
}

export interface SignedIn {
  sessionId: string;
  csrfToken: string;
  user: SignedInUser;
}

export interface AuthInfo {
  projectId: string;
  /** The calling key; null for a signed-in person. */
  keyId: string | null;
  keyType: KeyType;
  scope: KeyScope;
  /** The sender domains this key may send from; null: any verified domain of its project. */
  domainIds: string[] | null;
  /** The signed-in person and their role in the project; null for a key. */
  member: { user: SignedInUser; role: Role } | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route declares it (`none` for one anyone may call): a route without it is refused when registered. */
    auth?: AuthMode;
    /**
     * Which restricted keys may call the route besides `full` ones: `read` (GET routes only), `sending`, or both.
     * Every route taking a project key declares it (test/system/http/route-scopes.test.ts); undeclared means `full`
     * only.
     */
    scope?: KeyScope | readonly KeyScope[];
    /** The least role a signed-in member needs (every project route declares it). */
    role?: Role;
    /**
     * `links`: the unauthenticated links inside mail, limited per client address; `forms`: submissions of signup
     * forms, 10 a minute per client address (plugins/rate-limit.ts).
     */
    rateLimit?: 'links' | 'forms';
    /** What the route serves to browsers, for its Content-Security-Policy (plugins/security-headers.ts). */
    page?: 'dashboard' | 'docs' | 'hosted' | 'email' | 'form';
  }
  interface FastifyRequest {
    auth: AuthInfo | null;
    /** The signed-in person of a session request (any mode), or null. */
    signedIn: SignedIn | null;
    /** Where the request's changes come from (its actor, address and request id). */
    origin: Origin | null;
  }
}
