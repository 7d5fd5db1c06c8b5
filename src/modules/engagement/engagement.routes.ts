import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { refuseFormFromElsewhere } from '../../lib/form-origin.ts';
import { acceptsHtml, FORM_BODY_LIMIT, FORM_CONTENT_TYPES } from '../../lib/hosted-page.ts';
import { errors } from '../../lib/http.ts';
import { pageLocale, type Language } from '../../lib/i18n/index.ts';
import {
  busyLinkPage,
  invalidLinkPage,
  PIXEL,
  resubscribedPage,
  postedFromPage,
  unsubscribeConfirmPage,
  unsubscribedPage,
} from './engagement.pages.ts';
import { resubscribe, trackClick, trackOpen, unsubscribe, unsubscribeTarget } from './engagement.service.ts';

/** What the API reference says about each engagement route, by operationId. */
const engagementRouteDocs = {
  trackOpen:
    "A 1×1 GIF; the first open of an email records `email.opened` (and the first person's, when machines " +
    'opened it first: `data.machine`), later ones only count. The same image for unknown tokens.',
  trackClick:
    'Redirects to the link the token names in its email (never to a URL taken from the request), ' +
    'percent-encoded as a browser would, and counts the click. A link no redirect can be made to is not ' +
    'counted. While too many links are being resolved at once: 503 with Retry-After (a page for ' +
    'browsers).',
  showUnsubscribe: 'A confirmation page with a button; a GET never unsubscribes (scanners follow links).',
  unsubscribe:
    'RFC 8058 one-click unsubscribe: takes effect before the answer, never redirects; repeating it ' +
    'changes nothing. Any body (form-encoded) is ignored.',
  resubscribe:
    'The Resubscribe button of the page after unsubscribing (a form POST): subscribes the contact again. ' +
    'Any body is ignored. 403 when posted from another site.',
} as const;

const tokenParams = z.object({ token: z.string().max(2048).meta({ description: 'The signed token of the link' }) });
const html = 'text/html; charset=utf-8';
const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const invalid = {
  description: 'The token is not valid: an HTML page for browsers, the error envelope otherwise',
  content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(404)[404] } },
};

/** The language of a page: the contact's, when the page is about one, else the browser's (lib/i18n). */
const languageOf = (request: FastifyRequest, contactLocale: string | null = null): Language =>
  pageLocale({ contactLocale, acceptLanguage: request.headers['accept-language'] });

function answerInvalid(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!acceptsHtml(request)) throw notFound('Link');
  return reply
    .code(404)
    .type(html)
    .send(invalidLinkPage(languageOf(request)));
}

/**
 * A click that cannot be resolved now (503): a page asking to retry for browsers; anything else is rethrown (the
 * envelope).
 */
function answerBusy(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof AppError) || error.statusCode !== 503 || !acceptsHtml(request)) throw error;
  return reply
    .code(503)
    .headers(error.headers ?? {})
    .header('Cache-Control', 'no-store')
    .type(html)
    .send(busyLinkPage(languageOf(request)));
}

/** Who made a tracking request: method, client address (through trusted proxies) and user agent. */
const trackingRequest = (request: FastifyRequest) => ({
  method: request.method,
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * Links inside sent mail: open pixel, click redirect, one-click unsubscribe. No API key: the token is the
 * credential. Limited per client address (LINK_RATE_LIMIT_PER_MINUTE), as anyone can call them.
 */
export function linkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // One-click unsubscribe POSTs arrive form-encoded (RFC 8058 names both encodings); the body carries nothing we
    // need.
    app.addContentTypeParser(
      FORM_CONTENT_TYPES,
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    const tags = ['Links in mail'];
    const config = { auth: 'none', rateLimit: 'links' } as const;

    app.get(
      '/t/o/:token',
      {
        config,
        schema: {
          tags,
          summary: 'Open pixel',
          operationId: 'trackOpen',
          params: tokenParams,
          description: engagementRouteDocs.trackOpen,
          response: {
            200: {
              description: 'A 1×1 transparent GIF (Cache-Control: no-store)',
              content: { 'image/gif': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
            },
            ...errors(),
          },
        },
      },
      async (request, reply) => {
        await trackOpen(ctx, request.params.token, trackingRequest(request)).catch((error: unknown) =>
          request.log.warn({ err: loggableError(error) }, 'open not recorded'),
        );
        return reply.header('Cache-Control', 'no-store, max-age=0').type('image/gif').send(PIXEL);
      },
    );

    app.get(
      '/t/c/:token',
      {
        config,
        schema: {
          tags,
          summary: 'Click redirect',
          operationId: 'trackClick',
          params: tokenParams,
          description: engagementRouteDocs.trackClick,
          response: {
            302: z
              .null()
              .meta({ description: 'Redirect to the link of the email (Location header; Cache-Control: no-store)' }),
            404: invalid,
            503: {
              description:
                'Busy resolving other links: retry after Retry-After (an HTML page for browsers, ' +
                'the error envelope otherwise)',
              content: { 'text/html': { schema: z.string() }, 'application/json': { schema: errors(503)[503] } },
            },
            ...errors(),
          },
        },
      },
      async (request, reply) => {
        let url: string | null;
        try {
          url = await trackClick(ctx, request.params.token, trackingRequest(request));
        } catch (error) {
          return answerBusy(request, reply, error);
        }
        reply.header('Cache-Control', 'no-store, max-age=0');
        if (!url) return answerInvalid(request, reply);
        return reply.redirect(url, 302);
      },
    );

    app.get(
      '/unsubscribe/:token',
      {
        config,
        schema: {
          tags,
          summary: 'Unsubscribe page',
          operationId: 'showUnsubscribe',
          params: tokenParams,
          description: engagementRouteDocs.showUnsubscribe,
          response: { 200: page('The confirmation page'), 404: invalid, ...errors() },
        },
      },
      async (request, reply) => {
        const target = await unsubscribeTarget(ctx, request.params.token);
        reply.header('Cache-Control', 'no-store');
        if (!target) return answerInvalid(request, reply);
        return reply
          .type(html)
          .send(
            unsubscribeConfirmPage(
              languageOf(request, target.locale),
              request.params.token,
              target.email,
              target.sender,
            ),
          );
      },
    );

    app.post(
      '/unsubscribe/:token',
      {
        config,
        schema: {
          tags,
          summary: 'One-click unsubscribe',
          operationId: 'unsubscribe',
          params: tokenParams,
          description: engagementRouteDocs.unsubscribe,
          response: { 200: page('Unsubscribed'), 404: invalid, ...errors() },
        },
      },
      async (request, reply) => {
        const done = await unsubscribe(ctx, request.params.token, postedFromPage(request.body));
        reply.header('Cache-Control', 'no-store');
        if (!done) return answerInvalid(request, reply);
        return reply
          .code(200)
          .type(html)
          .send(unsubscribedPage(languageOf(request, done.locale), request.params.token, done.sender));
      },
    );

    app.post(
      '/unsubscribe/:token/resubscribe',
      {
        config,
        schema: {
          tags,
          summary: 'Resubscribe',
          operationId: 'resubscribe',
          params: tokenParams,
          description: engagementRouteDocs.resubscribe,
          response: { 200: page('Subscribed again'), 404: invalid, ...errors(403) },
        },
      },
      async (request, reply) => {
        refuseFormFromElsewhere(request);
        const done = await resubscribe(ctx, request.params.token);
        reply.header('Cache-Control', 'no-store');
        if (!done) return answerInvalid(request, reply);
        return reply
          .code(200)
          .type(html)
          .send(resubscribedPage(languageOf(request, done.locale), request.params.token, done.sender));
      },
    );
  };
}
