import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { readCookie } from '../../lib/cookies.ts';
import { AppError } from '../../lib/errors.ts';
import { errors } from '../../lib/http.ts';
import { pageLocale } from '../../lib/i18n/index.ts';
import { secretsEqual } from '../../lib/keys.ts';
import { clientOf } from '../../plugins/auth.ts';
import { setSessionCookie } from '../accounts/index.ts';
import { ATTEMPT_COOKIE, attemptCookie, clearedAttemptCookie, openAttempt } from './sso.attempt.ts';
import { createIssuer } from './sso.issuer.ts';
import { Refusal, refusalPage } from './sso.pages.ts';
import { signInWithIdentity } from './sso.service.ts';

/** What the API reference says about each SSO route, by operationId. */
const ssoRouteDocs = {
  startSso:
    'Redirects the browser to the identity provider (authorization code flow with PKCE), which ' +
    'sends it back to GET /auth/oidc/callback; the attempt is good for 10 minutes. ' +
    '404 when single sign-on is not set up.',
  finishSso:
    'Where the identity provider sends the browser back (`code`, `state` and `iss`, or `error`): ' +
    'signs in the person whose verified email the ID token (or userinfo) gives, making their account when ' +
    'they have open invitations or OIDC_AUTO_JOIN admits their domain, and redirects to the dashboard. ' +
    'Anyone else gets a page saying why. 404 when single sign-on is not set up.',
} as const;

const html = 'text/html; charset=utf-8';
const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const redirect = (description: string) => z.null().meta({ description });

const notConfigured = () =>
  new AppError('NOT_FOUND', 'Single sign-on is not set up on this instance', {
    suggestion:
      'Sign in with your email and password (POST /auth/sign-in); ' +
      'the operator turns SSO on with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
  });

/** The language of a refusal page: the browser's (lib/i18n). */
const languageOf = (request: FastifyRequest) => pageLocale({ acceptLanguage: request.headers['accept-language'] });

/** The query string of a request's URL, `?` included (empty without one), exactly as the browser sent it. */
const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?')) : '');

/**
 * /auth/oidc: single sign-on with the OpenID Connect issuer of OIDC_ISSUER (404 when it is not set up). People reach
 * these routes in a browser: a refusal is an HTML page saying why, with a link back to sign-in.
 */
export function ssoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Sign-in'];
    const config = { auth: 'none', page: 'hosted' } as const;
    const issuer = ctx.config.oidc ? createIssuer(ctx.config.oidc, ctx.logger) : null;
    const redirectUri = `${ctx.config.publicUrl}/auth/oidc/callback`;

    app.get(
      '/auth/oidc/start',
      {
        config,
        schema: {
          tags,
          summary: 'Sign in with SSO',
          operationId: 'startSso',
          description: ssoRouteDocs.startSso,
          response: {
            302: redirect("To the identity provider's authorization endpoint (sets the attempt's sealed cookie)"),
            503: page('The identity provider could not be reached'),
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        if (!issuer) throw notConfigured();
        reply.header('Cache-Control', 'no-store');
        try {
          const { attempt, url } = await issuer.start(redirectUri);
          reply.header('Set-Cookie', attemptCookie(ctx, attempt));
          return reply.redirect(url.href, 302);
        } catch (error) {
          // Only the issuer's discovery can fail here.
          if (!(error instanceof Refusal) || error.reason !== 'unreachable') throw error;
          return reply
            .code(503)
            .type(html)
            .send(refusalPage(languageOf(request), error));
        }
      },
    );

    app.get(
      '/auth/oidc/callback',
      {
        config,
        schema: {
          tags,
          summary: 'Come back from SSO',
          operationId: 'finishSso',
          description: ssoRouteDocs.finishSso,
          response: {
            302: redirect('Signed in (sets the session cookie): to the dashboard'),
            400: page(
              'No live attempt of this browser (wrong or missing state, expired, used), or the identity ' +
                'provider answered with an error or an answer that failed the checks',
            ),
            403: page('No account or invitation for the address, or the identity provider has not verified it'),
            503: page('The identity provider could not be reached'),
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        if (!issuer) throw notConfigured();
        reply.header('Cache-Control', 'no-store');
        // Whatever happens next, the browser forgets the attempt: it completes once.
        reply.header('Set-Cookie', clearedAttemptCookie(ctx));
        const query = queryOf(request.url);
        const params = new URLSearchParams(query);
        try {
          const attempt = openAttempt(ctx, readCookie(request.headers.cookie, ATTEMPT_COOKIE));
          const state = params.get('state');
          if (!attempt || state === null || !secretsEqual(state, attempt.state)) throw new Refusal('attempt');
          const error = params.get('error');
          const description = params.get('error_description');
          if (error !== null) throw new Refusal('issuer-error', { error, ...(description ? { description } : {}) });
          const identity = await issuer.finish(new URL(`${redirectUri}${query}`), attempt);
          const { session } = await signInWithIdentity({ ctx, identity, client: clientOf(request) });
          setSessionCookie(ctx, reply, session);
          return reply.redirect('/', 302);
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          return reply
            .code(error.status)
            .type(html)
            .send(refusalPage(languageOf(request), error));
        }
      },
    );
  };
}
