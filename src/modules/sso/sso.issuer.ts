// Herald as a client of the OpenID Connect issuer (openid-client): the authorization request of an attempt, and
// the identity its callback proves. The library checks state, nonce, PKCE and the ID token (signature, issuer,
// audience, expiry); this file turns what it answers into an identity or a refusal.
import type { Logger } from 'pino';
import * as oidc from 'openid-client';
import type { Config } from '../../config.ts';
import { normalizeEmail } from '../../lib/email-address.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { ATTEMPT_MS, type Attempt } from './sso.attempt.ts';
import { Refusal } from './sso.pages.ts';

type Settings = NonNullable<Config['oidc']>;

/** Who the issuer says signed in: the address, whether the issuer vouches for it, and their name if given. */
export interface Identity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

/** The issuer's requests time out after 10 seconds: a person is waiting in the browser. */
const TIMEOUT_SECONDS = 10;

/** A boolean claim that is true; some issuers send booleans as the strings "true" and "false". */
const isTrue = (value: unknown) => value === true || value === 'true';

/**
 * The issuer vouches for the address with `email_verified` true. Microsoft Entra ID never sends `email_verified` for
 * work accounts; it says `xms_edov` (the address's domain is verified by the directory that issued the token)
 * instead, which counts only when the token carries no `email_verified` at all.
 */
function verifiedIn(claims: Record<string, unknown>): boolean {
  if (claims.email_verified !== undefined) return isTrue(claims.email_verified);
  return isTrue(claims.xms_edov);
}

/** The identity in the ID token's claims when they carry an email, otherwise in the userinfo answer for its subject. */
function identityFrom(claims: Record<string, unknown>, subject: string): Identity {
  if (typeof claims.email !== 'string' || claims.email.trim() === '') throw new Refusal('no-email');
  const email = normalizeEmail(claims.email);
  const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 200) : null;
  return { subject, email, emailVerified: verifiedIn(claims), name };
}

const UNREACHABLE_CODES = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT']);

/** A failed request to the issuer: not reached (503), or an answer that was refused or failed the checks (400). */
function refusalOf(error: unknown, logger: Logger): Refusal {
  if (error instanceof Refusal) return error;
  const code = (error as { code?: unknown }).code;
  const unreached = error instanceof TypeError && error.message === 'fetch failed';
  if (unreached || (typeof code === 'string' && UNREACHABLE_CODES.has(code))) {
    logger.warn({ err: loggableError(error) }, 'single sign-on: the issuer could not be reached');
    return new Refusal('unreachable');
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    const description = error.error_description ? { description: error.error_description } : {};
    return new Refusal('issuer-error', { error: error.error, ...description });
  }
  logger.warn({ err: loggableError(error) }, "single sign-on: the issuer's answer was refused");
  return new Refusal('exchange');
}

export interface Issuer {
  /** A new attempt and the issuer's authorization URL for it. */
  start(redirectUri: string): Promise<{ attempt: Attempt; url: URL }>;
  /** The identity a callback URL proves for the attempt it belongs to; a Refusal otherwise. */
  finish(callbackUrl: URL, attempt: Attempt): Promise<Identity>;
}

/**
 * The issuer of the settings. Its discovery document (and with it the signing keys' location) is fetched once, on
 * the first sign-in, and kept; a discovery that failed is tried again on the next sign-in.
 */
export function createIssuer(settings: Settings, logger: Logger): Issuer {
  let discovered: Promise<oidc.Configuration> | null = null;

  function configuration(): Promise<oidc.Configuration> {
    if (!discovered) {
      const server = new URL(settings.issuer);
      // An http:// issuer is the operator's choice (OIDC_ISSUER accepts it): a test or a private network.
      const execute = server.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
      const pending = oidc.discovery(server, settings.clientId, settings.clientSecret, undefined, {
        execute,
        timeout: TIMEOUT_SECONDS,
      });
      discovered = pending;
      pending.catch((error: unknown) => {
        if (discovered === pending) discovered = null;
        const err = loggableError(error);
        logger.error({ err, issuer: settings.issuer }, 'single sign-on: discovery of the issuer failed');
      });
    }
    return discovered.catch(() => {
      throw new Refusal('unreachable');
    });
  }

  return {
    async start(redirectUri) {
      const config = await configuration();
      const attempt: Attempt = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        expiresAt: Date.now() + ATTEMPT_MS,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(attempt.codeVerifier),
        code_challenge_method: 'S256',
        state: attempt.state,
        nonce: attempt.nonce,
      });
      return { attempt, url };
    },

    async finish(callbackUrl, attempt) {
      const config = await configuration();
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: attempt.codeVerifier,
          expectedState: attempt.state,
          expectedNonce: attempt.nonce,
        });
        // With an expected nonce the library requires an ID token and has checked it.
        const claims = tokens.claims()!;
        if (typeof claims.email === 'string' || !config.serverMetadata().userinfo_endpoint) {
          return identityFrom(claims, claims.sub);
        }
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        return identityFrom({ name: claims.name, ...info }, claims.sub);
      } catch (error) {
        throw refusalOf(error, logger);
      }
    },
  };
}
