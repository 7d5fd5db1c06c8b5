import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { ATTACHMENT_BODY_LIMIT, envelope, errors, ok } from '../../lib/http.ts';
import { projectOf, senderDomainsOf } from '../../plugins/auth.ts';
import { saveIdempotentResponse } from '../../plugins/idempotency.ts';
import { batchBody, batchResult, sendBody, sendResult, sendRouteDocs } from './send.schemas.ts';
import { sendBatch, sendEmail } from './send.service.ts';

/** POST /v1/send (and /send, as Plunk clients call it), and POST /v1/send/batch. */
export function sendRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/v1/send', '/send']) {
      app.post(
        url,
        {
          config: { auth: 'secret', scope: 'sending', role: 'editor' },
          bodyLimit: ATTACHMENT_BODY_LIMIT,
          schema: {
            tags: ['Public'],
            summary: 'Send an email',
            operationId: 'sendEmail',
            hide: url === '/send',
            description: sendRouteDocs.sendEmail,
            body: sendBody,
            response: { 200: envelope(sendResult), ...errors(404) },
          },
        },
        async (request) => {
          const result = await sendEmail({
            ctx,
            projectId: projectOf(request),
            senderDomainIds: senderDomainsOf(request),
            body: request.body,
            // The Idempotency-Key's answer commits with the emails, so a crash before the reply cannot send twice.
            beforeCommit: (tx, answer) => saveIdempotentResponse(tx, request, 200, ok(answer)),
          });
          return ok(result);
        },
      );
    }

    app.post(
      '/v1/send/batch',
      {
        config: { auth: 'secret', scope: 'sending', role: 'editor' },
        bodyLimit: ATTACHMENT_BODY_LIMIT,
        schema: {
          tags: ['Public'],
          summary: 'Send a batch of emails',
          operationId: 'sendBatch',
          description: sendRouteDocs.sendBatch,
          body: batchBody,
          response: { 200: envelope(batchResult), ...errors(403, 404) },
        },
      },
      async (request) => {
        const result = await sendBatch({
          ctx,
          projectId: projectOf(request),
          senderDomainIds: senderDomainsOf(request),
          bodies: request.body,
          beforeCommit: (tx, answer) => saveIdempotentResponse(tx, request, 200, ok(answer)),
        });
        return ok(result);
      },
    );
  };
}
