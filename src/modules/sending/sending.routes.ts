import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { emailContentSchema, emailSourceSchema, getEmailContent, getEmailSource } from './sending.source.ts';

/** What the API reference says about each sending route, by operationId. */
const sendingRouteDocs = {
  getEmailSource:
    'The complete message: the copy the outbox wrote (MAIL_TRANSPORT=outbox), otherwise built again from ' +
    'what is stored (`rebuilt: true`: same body and Message-ID; the Date header is the handoff time, so ' +
    'the DKIM signature differs). 404 when the sender domain was deleted; 409 when the email cannot be ' +
    'built for its recipient; 410 once its content was deleted after the retention period ' +
    '(RETENTION_EMAIL_CONTENT_DAYS) or with its contact.',
  getEmailContent:
    'Subject, sender, recipient and bodies as the recipient reads them (before tracking), rendered again ' +
    'from what is stored, for every transport. 410 once its content was deleted after the retention ' +
    'period or with its contact.',
} as const;

/** Each message's content and raw source, built again by the code that built it for the transport. */
export function emailSourceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get(
      '/emails/:id/source',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the raw message of an email',
          operationId: 'getEmailSource',
          description: sendingRouteDocs.getEmailSource,
          params: idParams,
          response: { 200: envelope(emailSourceSchema), ...errors(404, 409, 410) },
        },
      },
      async (request) => ok(await getEmailSource({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/emails/:id/content',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the content of an email',
          operationId: 'getEmailContent',
          description: sendingRouteDocs.getEmailContent,
          params: idParams,
          response: { 200: envelope(emailContentSchema), ...errors(404, 409, 410) },
        },
      },
      async (request) => ok(await getEmailContent({ ctx, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
