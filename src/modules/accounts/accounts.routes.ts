import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { cookieHeader } from '../../lib/cookies.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { checkOwnOrigin, clientOf, SESSION_COOKIE } from '../../plugins/auth.ts';
import type { SignedIn } from '../../plugins/types.ts';
import * as repo from './accounts.repo.ts';
import {
  accountRouteDocs,
  adminCreateUserBody,
  codeBody,
  disableBody,
  userSchema,
  optionsSchema,
  resetBody,
  resetConfirmBody,
  sessionSchema,
  setupBody,
  signInBody,
  updateMeBody,
} from './accounts.schemas.ts';
import * as service from './accounts.service.ts';

const secureCookies = (ctx: AppContext) => ctx.config.publicUrl.startsWith('https:');

/** Sets the session cookie of a new session (HttpOnly, SameSite=Lax, Secure behind https). */
export function setSessionCookie(ctx: AppContext, reply: FastifyReply, session: service.StartedSession): void {
  reply.header(
    'Set-Cookie',
    cookieHeader(SESSION_COOKIE, session.token, {
      secure: secureCookies(ctx),
      maxAge: Math.floor(service.SESSION_MAX_MS / 1000),
    }),
  );
}

function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.header('Set-Cookie', cookieHeader(SESSION_COOKIE, '', { secure: secureCookies(ctx), maxAge: 0 }));
}

/**
 * A browser posting to a route that signs in must be on Herald's own page: no other site can sign a visitor into an
 * account of its choosing.
 */
export function checkSignInOrigin(ctx: AppContext, request: FastifyRequest): void {
  checkOwnOrigin(ctx, request, 'Signing in is not allowed');
}

const signedInOf = (request: FastifyRequest): SignedIn => request.signedIn!;

/** /auth: first run, sign-in and out, one's own account, password reset and two-factor. */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Sign-in'];
    const open = { auth: 'none' } as const;
    const person = { auth: 'session' } as const;

    app.get(
      '/auth/options',
      {
        config: open,
        schema: {
          tags,
          summary: 'How people can sign in here',
          operationId: 'getSignInOptions',
          response: { 200: envelope(optionsSchema) },
        },
      },
      async () =>
        ok({
          passwordSignIn: !ctx.config.oidc?.only,
          sso: ctx.config.oidc !== null,
          setupOpen: (await repo.countUsers(ctx.db)) === 0,
        }),
    );

    app.post(
      '/auth/setup',
      {
        config: open,
        schema: {
          tags,
          summary: 'Create the first user',
          operationId: 'setup',
          description: accountRouteDocs.setup,
          body: setupBody,
          response: { 201: envelope(sessionSchema), ...errors(403, 410) },
        },
      },
      async (request, reply) => {
        checkSignInOrigin(ctx, request);
        const { session, view } = await service.setup({ ctx, ...request.body, client: clientOf(request) });
        setSessionCookie(ctx, reply, session);
        reply.code(201);
        return ok({ ...view, csrfToken: session.csrfToken });
      },
    );

    app.post(
      '/auth/sign-in',
      {
        config: open,
        schema: {
          tags,
          summary: 'Sign in',
          operationId: 'signIn',
          description: accountRouteDocs.signIn,
          body: signInBody,
          response: { 200: envelope(sessionSchema), ...errors(401, 403, 429) },
        },
      },
      async (request, reply) => {
        checkSignInOrigin(ctx, request);
        const { session, view } = await service.signIn({ ctx, ...request.body, client: clientOf(request) });
        setSessionCookie(ctx, reply, session);
        return ok({ ...view, csrfToken: session.csrfToken });
      },
    );

    app.post(
      '/auth/sign-out',
      {
        config: person,
        schema: {
          tags,
          summary: 'Sign out',
          operationId: 'signOut',
          response: { 200: envelope(z.object({ signedOut: z.literal(true) })), ...errors() },
        },
      },
      async (request, reply) => {
        await service.signOut({ ctx, signedIn: signedInOf(request) });
        clearSessionCookie(ctx, reply);
        return ok({ signedOut: true as const });
      },
    );

    app.get(
      '/auth/session',
      {
        config: person,
        schema: {
          tags,
          summary: 'The signed-in person',
          operationId: 'getSession',
          response: { 200: envelope(sessionSchema), ...errors() },
        },
      },
      async (request) => {
        const signedIn = signedInOf(request);
        return ok({
          ...(await service.sessionView(ctx.db, await service.getUser(ctx.db, signedIn.user.id))),
          csrfToken: signedIn.csrfToken,
        });
      },
    );

    app.patch(
      '/auth/me',
      {
        config: person,
        schema: {
          tags,
          summary: 'Change your name or password',
          operationId: 'updateMe',
          description: 'A new password needs the current one; it ends every other session of yours.',
          body: updateMeBody,
          response: { 200: envelope(sessionSchema), ...errors() },
        },
      },
      async (request, reply) => {
        const { session, view } = await service.updateMe({
          ctx,
          signedIn: signedInOf(request),
          ...request.body,
          client: clientOf(request),
        });
        if (session) setSessionCookie(ctx, reply, session);
        return ok({ ...view, csrfToken: session?.csrfToken ?? signedInOf(request).csrfToken });
      },
    );

    app.post(
      '/auth/password-reset',
      {
        config: open,
        schema: {
          tags,
          summary: 'Ask for a password reset link',
          operationId: 'requestPasswordReset',
          description: accountRouteDocs.requestPasswordReset,
          body: resetBody,
          response: { 202: envelope(z.object({ requested: z.literal(true) })), ...errors() },
        },
      },
      async (request, reply) => {
        // Answered before the work is done, so the time taken does not tell whether the address has an account.
        service
          .requestPasswordReset({ ctx, email: request.body.email })
          .catch((error: unknown) => ctx.logger.error({ err: error }, 'password reset failed'));
        reply.code(202);
        return ok({ requested: true as const });
      },
    );

    app.post(
      '/auth/password-reset/confirm',
      {
        config: open,
        schema: {
          tags,
          summary: 'Set a new password with a reset link',
          operationId: 'confirmPasswordReset',
          description: 'Uses the link once, ends every session of the user, and signs them in.',
          body: resetConfirmBody,
          response: { 200: envelope(sessionSchema), ...errors(403, 410) },
        },
      },
      async (request, reply) => {
        checkSignInOrigin(ctx, request);
        const { session, view } = await service.confirmPasswordReset({
          ctx,
          ...request.body,
          client: clientOf(request),
        });
        setSessionCookie(ctx, reply, session);
        return ok({ ...view, csrfToken: session.csrfToken });
      },
    );

    const linkSchema = envelope(z.object({ user: userSchema, setPasswordUrl: z.string(), expiresAt: z.string() }));

    app.post(
      '/admin/users',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: 'Create a user',
          operationId: 'adminCreateUser',
          description: accountRouteDocs.adminCreateUser,
          body: adminCreateUserBody,
          response: { 201: linkSchema, ...errors(404, 409) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createUserWithLink({ ctx, ...request.body, isAdmin: request.body.isAdmin ?? false }));
      },
    );

    app.get(
      '/admin/users',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: "List the instance's users",
          operationId: 'adminListUsers',
          response: { 200: envelope(z.array(userSchema)), ...errors() },
        },
      },
      async () => ok(await service.listUsers(ctx.db)),
    );

    app.delete(
      '/admin/users/:id',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: 'Remove a user',
          operationId: 'adminDeleteUser',
          description: accountRouteDocs.adminDeleteUser,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404, 409) },
        },
      },
      async (request) => ok(await service.deleteUser({ db: ctx.db, id: request.params.id })),
    );

    app.post(
      '/admin/users/password-link',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: 'Make a password link for a user',
          operationId: 'adminPasswordLink',
          description: accountRouteDocs.adminPasswordLink,
          body: resetBody,
          response: { 200: linkSchema, ...errors(404) },
        },
      },
      async (request) => ok(await service.resetLinkFor({ ctx, email: request.body.email })),
    );

    app.post(
      '/auth/2fa/setup',
      {
        config: person,
        schema: {
          tags,
          summary: 'Start setting up two-factor',
          operationId: 'setupTwoFactor',
          description: accountRouteDocs.setupTwoFactor,
          response: { 200: envelope(z.object({ secret: z.string(), otpauthUrl: z.string() })), ...errors(409) },
        },
      },
      async (request) => ok(await service.setupTwoFactor({ ctx, signedIn: signedInOf(request) })),
    );

    app.post(
      '/auth/2fa/enable',
      {
        config: person,
        schema: {
          tags,
          summary: 'Turn two-factor on',
          operationId: 'enableTwoFactor',
          description: accountRouteDocs.enableTwoFactor,
          body: codeBody,
          response: { 200: envelope(z.object({ recoveryCodes: z.array(z.string()) })), ...errors(409) },
        },
      },
      async (request) =>
        ok(await service.enableTwoFactor({ ctx, signedIn: signedInOf(request), code: request.body.code })),
    );

    app.post(
      '/auth/2fa/disable',
      {
        config: person,
        schema: {
          tags,
          summary: 'Turn two-factor off',
          operationId: 'disableTwoFactor',
          description: 'Needs your password and a current code (or a recovery code).',
          body: disableBody,
          response: { 200: envelope(z.object({ twoFactor: z.literal(false) })), ...errors(409) },
        },
      },
      async (request) => ok(await service.disableTwoFactor({ ctx, signedIn: signedInOf(request), ...request.body })),
    );
  };
}
