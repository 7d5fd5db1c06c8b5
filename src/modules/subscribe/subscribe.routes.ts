import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { refuseFormFromElsewhere } from '../../lib/form-origin.ts';
import { FORM_BODY_LIMIT, FORM_CONTENT_TYPES, invalidLinkPage } from '../../lib/hosted-page.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { confirmedPage, confirmPage, expiredPage } from './subscribe.pages.ts';
import { confirmationSchema, subscribeAccepted, subscribeBody, subscribeResult } from './subscribe.schemas.ts';
import { confirmationTarget, confirmSubscription, getConfirmation, subscribe } from './subscribe.service.ts';

const tokenParams = z.object({ token: z.string().max(2048).meta({ description: 'The signed token of the link' }) });
const html = 'text/html; charset=utf-8';
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const bad = (status: 404 | 410) => ({ description: status === 404 ? 'The token is not valid' : 'The link is older than 7 days', content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(status)[status] } } });

/** A forged (404) or expired (410) link: a page for browsers, the error envelope otherwise. */
function answerBad(request: FastifyRequest, reply: FastifyReply, expired: boolean): FastifyReply {
  if (!/\btext\/html\b/.test(request.headers.accept ?? '')) {
    throw expired ? new AppError('GONE', 'This confirmation link has expired (links are valid for 7 days)') : notFound('Link');
  }
  return reply.code(expired ? 410 : 404).type(html).send(expired ? expiredPage() : invalidLinkPage());
}

/** POST /v1/subscribe (public or secret key) and the pages of confirmation links. */
export function subscribeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(FORM_CONTENT_TYPES, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => done(null, body));

    app.post('/v1/subscribe', {
      config: { auth: 'public', scope: 'sending', role: 'editor' },
      schema: {
        tags: ['Public'], summary: 'Subscribe with double opt-in', operationId: 'subscribe', body: subscribeBody,
        description: 'For signup forms (public key, CORS) and backends (secret key). Creates or updates the contact; unless it is already subscribed it stays `subscribed: false`, PENDING, and gets the confirmation email of the project\'s doubleOptIn setting (at most one per 10 minutes). A public key never changes an existing contact, and gets 409 when double opt-in is not set up; a secret key then subscribes at once. A public key always gets 202 with `data: null`, whether the address was new, pending or already subscribed, so a form tells nobody who is on the list; a secret key gets 200 with the contact and its confirmation.',
        response: {
          200: envelope(subscribeResult).meta({ description: 'Secret key: the contact and its confirmation' }),
          202: envelope(subscribeAccepted).meta({ description: 'Public key: accepted, the same answer whatever the address' }),
          ...errors(409),
        },
      },
    }, async (request, reply) => {
      const result = await subscribe({ ctx, projectId: projectOf(request), keyType: request.auth!.keyType, input: request.body });
      if (result) return ok(result);
      reply.code(202);
      return ok(null);
    });

    app.get('/contacts/:id/confirmation', {
      config: { auth: 'secret', scope: 'read', role: 'viewer' },
      schema: {
        tags: ['Contacts'], summary: 'Get a contact\'s confirmation', operationId: 'getContactConfirmation', params: idParams,
        description: 'Double opt-in: NONE when the contact never signed up through POST /v1/subscribe with a confirmation email, PENDING once one was sent, CONFIRMED after its link was confirmed.',
        response: { 200: envelope(confirmationSchema), ...errors(404) },
      },
    }, async (request) => ok(await getConfirmation({ db: ctx.db, projectId: projectOf(request), contactId: request.params.id })));

    const config = { auth: 'none', rateLimit: 'links' } as const;
    app.get('/confirm/:token', {
      config,
      schema: { tags: ['Links in mail'], summary: 'Confirmation page', operationId: 'confirmPage', params: tokenParams, description: 'The page behind {{confirmUrl}}: a Confirm button. A GET never confirms (link scanners follow links).', response: { 200: htmlPage('The confirmation page'), 404: bad(404), 410: bad(410), ...errors() } },
    }, async (request, reply) => {
      const target = await confirmationTarget(ctx, request.params.token);
      reply.header('Cache-Control', 'no-store');
      if (target === null || target === 'expired') return answerBad(request, reply, target === 'expired');
      return reply.type(html).send(confirmPage(request.params.token, target.contact.email, target.projectName));
    });

    app.post('/confirm/:token', {
      config,
      schema: { tags: ['Links in mail'], summary: 'Confirm a subscription', operationId: 'confirmSubscription', params: tokenParams, description: 'The Confirm button: subscribed, confirmation CONFIRMED, events contact.confirmed and contact.subscribed. Repeating it changes nothing. Any body is ignored. 403 when posted from another site.', response: { 200: htmlPage('Confirmed'), 404: bad(404), 410: bad(410), ...errors(403) } },
    }, async (request, reply) => {
      refuseFormFromElsewhere(request);
      const target = await confirmSubscription(ctx, request.params.token);
      reply.header('Cache-Control', 'no-store');
      if (target === null || target === 'expired') return answerBad(request, reply, target === 'expired');
      return reply.type(html).send(confirmedPage(target.contact.email, target.projectName));
    });
  };
}
