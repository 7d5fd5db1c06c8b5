// One sign-in attempt with the issuer, kept by the browser that started it: its state, nonce and PKCE code
// verifier, sealed (AES-GCM under APP_SECRET) in an HttpOnly cookie that lives 10 minutes. A new attempt replaces
// the cookie, and the callback clears it whatever its outcome, so an attempt completes at most once in a browser.
import type { AppContext } from '../../context.types.ts';
import { cookieHeader } from '../../lib/cookies.ts';
import { seal, unseal } from '../../lib/seal.ts';

export const ATTEMPT_COOKIE = 'herald_oidc';
export const ATTEMPT_MS = 10 * 60_000;
const PURPOSE = 'oidc-attempt';

export interface Attempt {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Epoch milliseconds; the sealed value says it, so a cookie kept past its Max-Age is still refused. */
  expiresAt: number;
}

/**
 * The cookie goes only to the sign-in routes (under PUBLIC_URL's path) and is SameSite=Lax: the issuer sends the
 * browser back with a top-level GET from its own site, which carries Lax cookies and no other cross-site request.
 */
function cookieOf(ctx: AppContext, value: string, maxAge: number): string {
  const base = new URL(ctx.config.publicUrl).pathname.replace(/\/+$/, '');
  return cookieHeader(ATTEMPT_COOKIE, value, {
    path: `${base}/auth/oidc`,
    secure: ctx.config.publicUrl.startsWith('https:'),
    sameSite: 'Lax',
    maxAge,
  });
}

/** The Set-Cookie value that keeps an attempt for 10 minutes. */
export function attemptCookie(ctx: AppContext, attempt: Attempt): string {
  return cookieOf(ctx, seal(ctx.secrets.appSecret, PURPOSE, JSON.stringify(attempt)), Math.floor(ATTEMPT_MS / 1000));
}

/** The Set-Cookie value that forgets the attempt. */
export function clearedAttemptCookie(ctx: AppContext): string {
  return cookieOf(ctx, '', 0);
}

const isAttempt = (value: unknown): value is Attempt => {
  const v = value as Partial<Attempt> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.state === 'string' &&
    typeof v.nonce === 'string' &&
    typeof v.codeVerifier === 'string' &&
    typeof v.expiresAt === 'number'
  );
};

/** The attempt a cookie holds; null when there is none, it was sealed elsewhere or changed, or it has expired. */
export function openAttempt(ctx: AppContext, sealed: string | null, now = Date.now()): Attempt | null {
  if (!sealed || sealed.length > 2048) return null;
  let attempt: unknown;
  try {
    attempt = JSON.parse(unseal(ctx.secrets.appSecret, PURPOSE, sealed));
  } catch {
    return null;
  }
  return isAttempt(attempt) && attempt.expiresAt > now ? attempt : null;
}
