import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, RouteHost } from '../../context.types.ts';
import { AppError } from '../../lib/errors.ts';
import { answerErrorsUnder } from '../../plugins/error-handler.ts';
import { resendBroadcastRoutes } from './resend.broadcasts.ts';
import { resendContactPropertyRoutes } from './resend.contact-properties.ts';
import { resendContactLinkRoutes } from './resend.contact-links.ts';
import { resendApiKeyRoutes } from './resend.api-keys.ts';
import { resendContactRoutes } from './resend.contacts.ts';
import { resendDomainRoutes } from './resend.domains.ts';
import { resendDownloadRoutes } from './resend.downloads.ts';
import { resendEmailRoutes } from './resend.emails.ts';
import { handleResendError, sendResendError } from './resend.errors.ts';
import { resendSegmentRoutes } from './resend.segments.ts';
import { resendTemplateRoutes } from './resend.templates.ts';
import { resendTopicRoutes } from './resend.topics.ts';
import { resendLogRoutes } from './resend.logs.ts';
import { resendMetricsRoutes } from './resend.metrics.ts';
import { resendReceivingRoutes } from './resend.receiving.ts';
import { resendWebhookRoutes } from './resend.webhooks.ts';

export const RESEND_PREFIX = '/resend';

/**
 * JSON bodies as the app parses them, except that an empty body is no body: Resend's SDK posts `cancel` and
 * `verify` with Content-Type application/json and nothing after it.
 */
function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new AppError('BAD_REQUEST', 'Malformed JSON body'), undefined);
    }
  });
}

/** Resend's REST API under /resend, with Resend's error shape on every answer, unknown paths included. */
export function resendRoutes(ctx: AppContext, host: RouteHost): FastifyPluginAsyncZod {
  return async (app) => {
    app.setErrorHandler(handleResendError);
    answerErrorsUnder(app, RESEND_PREFIX, sendResendError);
    acceptEmptyJson(app);
    await app.register(resendEmailRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendMetricsRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendDomainRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendContactRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendContactLinkRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendSegmentRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendTopicRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendBroadcastRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendContactPropertyRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendReceivingRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendDownloadRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendApiKeyRoutes(ctx, host), { prefix: RESEND_PREFIX });
    await app.register(resendLogRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendTemplateRoutes(ctx), { prefix: RESEND_PREFIX });
    await app.register(resendWebhookRoutes(ctx), { prefix: RESEND_PREFIX });
    // Any other path under /resend: Resend's 404 (the app's own would answer Herald's envelope).
    for (const url of [RESEND_PREFIX, `${RESEND_PREFIX}/*`]) {
      app.all(url, { schema: { hide: true }, config: { auth: 'none' } }, (request, reply) => {
        const path = request.url.split('?')[0]!;
        return sendResendError(
          request,
          reply,
          new AppError('NOT_FOUND', `Route ${request.method} ${path.slice(0, 200)} not found`),
        );
      });
    }
  };
}
