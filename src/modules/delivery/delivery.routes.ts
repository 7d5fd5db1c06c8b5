import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { getEmail, listEmails } from './delivery.service.ts';
import { emailSchema, emailStatus } from './delivery.view.ts';
import { z } from 'zod';

const listQuery = paginationQuery.extend({
  status: emailStatus.optional(),
  contactId: z.string().optional(),
  sourceId: z.string().optional(),
  to: z.string().trim().toLowerCase().min(1).max(254).optional()
    .meta({ description: 'Recipient address, case-insensitive: the whole address or its beginning (`ann@` or `ann@example.com`); an internationalised domain may be typed in Unicode' }),
});

/** Email records: every message Herald made, with its delivery status. */
export function emailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get('/emails', { config, schema: { tags, summary: 'List emails', operationId: 'listEmails', querystring: listQuery, response: { 200: listEnvelope(emailSchema), ...errors() } } }, async (request) => {
      return ok(await listEmails({ db: ctx.db, projectId: projectOf(request), ...request.query }));
    });

    app.get('/emails/:id', { config, schema: { tags, summary: 'Get an email', operationId: 'getEmail', params: idParams, response: { 200: envelope(emailSchema), ...errors(404) } } }, async (request) => {
      return ok(await getEmail({ db: ctx.db, projectId: projectOf(request), id: request.params.id }));
    });
  };
}
