import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { notFound } from '../../lib/errors.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { isId } from '../../lib/ids.ts';
import { paginationQuery, toPage } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { findEmail, listEmails } from './delivery.repo.ts';
import { emailSchema, emailStatus, toEmailView } from './delivery.view.ts';
import { z } from 'zod';

const listQuery = paginationQuery.extend({
  status: emailStatus.optional(),
  contactId: z.string().optional(),
  sourceId: z.string().optional(),
});

/** Email records: every message Herald made, with its delivery status. */
export function emailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get('/emails', { config, schema: { tags, summary: 'List emails', operationId: 'listEmails', querystring: listQuery, response: { 200: listEnvelope(emailSchema), ...errors() } } }, async (request) => {
      const q = request.query;
      const idsOk = (!q.contactId || isId(q.contactId)) && (!q.sourceId || isId(q.sourceId));
      if (!idsOk) return ok({ items: [], nextCursor: null, hasMore: false, total: 0 });
      const { rows, total } = await listEmails(ctx.db, projectOf(request), q);
      return ok(toPage(rows, q.limit, total, toEmailView));
    });

    app.get('/emails/:id', { config, schema: { tags, summary: 'Get an email', operationId: 'getEmail', params: idParams, response: { 200: envelope(emailSchema), ...errors(404) } } }, async (request) => {
      const row = isId(request.params.id) ? await findEmail(ctx.db, projectOf(request), request.params.id) : null;
      if (!row) throw notFound('Email');
      return ok(toEmailView(row));
    });
  };
}
