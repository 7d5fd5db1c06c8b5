/**
 * A real OpenID Connect issuer (oidc-provider) on 127.0.0.1, for single sign-on tests. Its login needs no browser:
 * the interaction page signs in the account the test chose (`issuer.signInAs(sub)`), grants what the client asked,
 * and sends the browser on; `issuer.authorize(url)` follows the redirects as a browser would, with its own cookies.
 */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

export const CLIENT_ID = 'herald';
export const CLIENT_SECRET = 'herald-client-secret-0123456789';
export const PUBLIC_URL = 'http://localhost:3999';
export const REDIRECT_URI = `${PUBLIC_URL}/auth/oidc/callback`;

export interface TestIssuer {
  url: string;
  /** The people the issuer knows, by subject: their claims (email, email_verified, name, …). */
  accounts: Map<string, Record<string, unknown>>;
  /** Who the next login is; null: the person cancels (the issuer answers `access_denied`). */
  signInAs(sub: string | null): void;
  /** Follows the issuer's redirects from an authorization URL; the URL it finally sends the browser to. */
  authorize(authorizationUrl: string): Promise<string>;
  /** Herald's environment for this issuer. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface TestIssuerOptions {
  /** Listen on this port (the issuer of an app made before it started). */
  port?: number;
  /** False: the ID token carries the claims of the scopes itself (the default gives them only at userinfo). */
  conformIdTokenClaims?: boolean;
}

const TTL_SECONDS = 600;
const MODELS = ['AccessToken', 'AuthorizationCode', 'Grant', 'IdToken', 'Interaction', 'Session'];
const FINISH = { mergeWithLastSubmission: false };

type Payload = Record<string, unknown>;

/** The issuer's storage (sessions, interactions, codes, tokens): a map of its own, forgotten when the test ends. */
function memoryAdapter() {
  const store = new Map<string, Payload>();
  return class Adapter {
    constructor(private readonly model: string) {}
    key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Payload) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUid(uid: string) {
      return [...store].find(([key, payload]) => key.startsWith(`${this.model}:`) && payload.uid === uid)?.[1];
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}

export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, Record<string, unknown>>();
  let next: string | null = null;
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(url, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx: unknown, sub: string) {
      const claims = accounts.get(sub);
      return claims ? { accountId: sub, claims: async () => ({ sub, ...claims }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    conformIdTokenClaims: options.conformIdTokenClaims ?? true,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    jwks: { keys: [{ ...jwk, use: 'sig', alg: 'RS256', kid: 'test' }] },
    cookies: { keys: ['test-issuer-cookie-key'] },
    ttl: Object.fromEntries(MODELS.map((name) => [name, TTL_SECONDS])),
  });
  const callback = provider.callback();

  async function interact(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (next === null) {
      const cancelled = { error: 'access_denied', error_description: 'The person cancelled' };
      await provider.interactionFinished(req, res, cancelled, FINISH);
      return;
    }
    const grant = new provider.Grant({ accountId: next, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: next }, consent: { grantId } }, FINISH);
  }

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    interact(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    url,
    accounts,
    signInAs(sub) {
      next = sub;
    },
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let current = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
        const res = await fetch(current, { redirect: 'manual', headers: { cookie } });
        for (const cookie of res.headers.getSetCookie()) {
          const pair = cookie.split(';')[0]!;
          jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the issuer answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
        current = new URL(location, current).href;
        if (current.startsWith(PUBLIC_URL)) return current;
      }
      throw new Error('too many redirects at the issuer');
    },
    env: { OIDC_ISSUER: url, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, PUBLIC_URL },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
