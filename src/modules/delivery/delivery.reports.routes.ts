import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { emailSourceSchema, getEmailSource } from './delivery.source.ts';
import { emailStatsQuery, emailStatsSchema, getEmailStats } from './delivery.stats.ts';

/** Reports on the project's email: activity per day, and a sent message's raw source (outbox). */
export function emailReportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get('/emails/stats', {
      config,
      schema: {
        tags,
        summary: 'Email activity per day',
        operationId: 'getEmailStats',
        description: 'Emails sent, delivered, opened, clicked, bounced and complained per UTC day (each email once a day), from the email.* events.',
        querystring: emailStatsQuery,
        response: { 200: envelope(emailStatsSchema), ...errors() },
      },
    }, async (request) => ok(await getEmailStats({ db: ctx.db, projectId: projectOf(request), days: request.query.days })));

    app.get('/emails/:id/source', {
      config,
      schema: {
        tags,
        summary: 'Get the raw message of an email',
        operationId: 'getEmailSource',
        description: 'The raw message as written to the outbox (MAIL_TRANSPORT=outbox only; 404 with other transports or before it is sent).',
        params: idParams,
        response: { 200: envelope(emailSourceSchema), ...errors(404) },
      },
    }, async (request) => ok(await getEmailSource({ ctx, projectId: projectOf(request), id: request.params.id })));
  };
}
