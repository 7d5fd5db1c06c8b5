import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { invalidLinkPage, PIXEL, unsubscribeConfirmPage, unsubscribedPage } from './delivery.tracking.pages.ts';
import { trackClick, trackOpen, unsubscribe, unsubscribeTarget } from './delivery.tracking.ts';

const tokenParams = z.object({ token: z.string().max(2048) });
const html = 'text/html; charset=utf-8';

/** Links inside sent mail: open pixel, click redirect, one-click unsubscribe. No API key: the token is the credential. */
export function trackingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // One-click unsubscribe POSTs arrive form-encoded (RFC 8058 names both encodings); the body carries nothing we need.
    app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    const tags = ['Links in mail'];

    app.get('/t/o/:token', { schema: { tags, params: tokenParams } }, async (request, reply) => {
      await trackOpen(ctx, request.params.token).catch((error: unknown) => request.log.warn({ err: error }, 'open not recorded'));
      return reply.header('Cache-Control', 'no-store, max-age=0').type('image/gif').send(PIXEL);
    });

    app.get('/t/c/:token', { schema: { tags, params: tokenParams } }, async (request, reply) => {
      const url = await trackClick(ctx, request.params.token);
      reply.header('Cache-Control', 'no-store, max-age=0');
      if (!url) return reply.code(404).type(html).send(invalidLinkPage());
      return reply.redirect(url, 302);
    });

    app.get('/unsubscribe/:token', { schema: { tags, params: tokenParams } }, async (request, reply) => {
      const target = await unsubscribeTarget(ctx, request.params.token);
      reply.header('Cache-Control', 'no-store').type(html);
      if (!target) return reply.code(404).send(invalidLinkPage());
      return reply.send(unsubscribeConfirmPage(`${ctx.config.publicUrl}/unsubscribe/${request.params.token}`, target.email));
    });

    app.post('/unsubscribe/:token', { schema: { tags, params: tokenParams } }, async (request, reply) => {
      const done = await unsubscribe(ctx, request.params.token);
      reply.header('Cache-Control', 'no-store').type(html);
      if (!done) return reply.code(404).send(invalidLinkPage());
      return reply.code(200).send(unsubscribedPage());
    });
  };
}
