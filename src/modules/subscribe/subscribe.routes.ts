import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { refuseFormFromElsewhere } from '../../lib/form-origin.ts';
import { acceptsHtml, FORM_BODY_LIMIT, FORM_CONTENT_TYPES, invalidLinkPage } from '../../lib/hosted-page.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { pageLocale } from '../../lib/i18n/index.ts';
import { projectOf } from '../../plugins/auth.ts';
import { confirmedPage, confirmPage, expiredPage } from './subscribe.pages.ts';
import {
  confirmationSchema,
  subscribeAccepted,
  subscribeBody,
  subscribeResult,
  subscribeRouteDocs,
} from './subscribe.schemas.ts';
import { confirmationTarget, confirmSubscription, getConfirmation, subscribe } from './subscribe.service.ts';

const tokenParams = z.object({ token: z.string().max(2048).meta({ description: 'The signed token of the link' }) });
const html = 'text/html; charset=utf-8';
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const bad = (status: 404 | 410) => ({
  description: status === 404 ? 'The token is not valid' : 'The link is older than 7 days',
  content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(status)[status] } },
});

/** The language of a page: the contact's when the link names one, else the browser's (lib/i18n). */
const languageOf = (request: FastifyRequest, contactLocale: string | null = null) =>
  pageLocale({ contactLocale, acceptLanguage: request.headers['accept-language'] });

/** A forged (404) or expired (410) link: a page for browsers, the error envelope otherwise. */
function answerBad(request: FastifyRequest, reply: FastifyReply, expired: boolean): FastifyReply {
  if (!acceptsHtml(request)) {
    throw expired
      ? new AppError('GONE', 'This confirmation link has expired (links are valid for 7 days)')
      : notFound('Link');
  }
  return reply
    .code(expired ? 410 : 404)
    .type(html)
    .send(expired ? expiredPage(languageOf(request)) : invalidLinkPage(languageOf(request)));
}

/** POST /v1/subscribe (public or secret key) and the pages of confirmation links. */
export function subscribeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      FORM_CONTENT_TYPES,
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );

    app.post(
      '/v1/subscribe',
      {
        config: { auth: 'public', scope: 'sending', role: 'editor' },
        schema: {
          tags: ['Public'],
          summary: 'Subscribe with double opt-in',
          operationId: 'subscribe',
          body: subscribeBody,
          description: subscribeRouteDocs.subscribe,
          response: {
            200: envelope(subscribeResult).meta({ description: 'Secret key: the contact and its confirmation' }),
            202: envelope(subscribeAccepted).meta({
              description: 'Public key: accepted, the same answer whatever the address',
            }),
            ...errors(409),
          },
        },
      },
      async (request, reply) => {
        const result = await subscribe({
          ctx,
          projectId: projectOf(request),
          keyType: request.auth!.keyType,
          input: request.body,
          acceptLanguage: request.headers['accept-language'],
        });
        if (result) return ok(result);
        reply.code(202);
        return ok(null);
      },
    );

    app.get(
      '/contacts/:id/confirmation',
      {
        config: { auth: 'secret', scope: 'read', role: 'viewer' },
        schema: {
          tags: ['Contacts'],
          summary: "Get a contact's confirmation",
          operationId: 'getContactConfirmation',
          params: idParams,
          description: subscribeRouteDocs.getContactConfirmation,
          response: { 200: envelope(confirmationSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await getConfirmation({ db: ctx.db, projectId: projectOf(request), contactId: request.params.id })),
    );

    const config = { auth: 'none', rateLimit: 'links' } as const;
    app.get(
      '/confirm/:token',
      {
        config,
        schema: {
          tags: ['Links in mail'],
          summary: 'Confirmation page',
          operationId: 'confirmPage',
          params: tokenParams,
          description: subscribeRouteDocs.confirmPage,
          response: { 200: htmlPage('The confirmation page'), 404: bad(404), 410: bad(410), ...errors() },
        },
      },
      async (request, reply) => {
        const target = await confirmationTarget(ctx, request.params.token);
        reply.header('Cache-Control', 'no-store');
        if (target === null || target === 'expired') return answerBad(request, reply, target === 'expired');
        const lang = languageOf(request, target.contact.locale);
        return reply.type(html).send(confirmPage(lang, request.params.token, target.contact.email, target.projectName));
      },
    );

    app.post(
      '/confirm/:token',
      {
        config,
        schema: {
          tags: ['Links in mail'],
          summary: 'Confirm a subscription',
          operationId: 'confirmSubscription',
          params: tokenParams,
          description: subscribeRouteDocs.confirmSubscription,
          response: { 200: htmlPage('Confirmed'), 404: bad(404), 410: bad(410), ...errors(403) },
        },
      },
      async (request, reply) => {
        refuseFormFromElsewhere(request);
        const target = await confirmSubscription(ctx, request.params.token);
        reply.header('Cache-Control', 'no-store');
        if (target === null || target === 'expired') return answerBad(request, reply, target === 'expired');
        const lang = languageOf(request, target.contact.locale);
        return reply.type(html).send(confirmedPage(lang, target.contact.email, target.projectName));
      },
    );
  };
}
