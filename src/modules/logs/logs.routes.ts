import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { logEntrySchema, logsQuery, logsRouteDocs } from './logs.schemas.ts';
import * as service from './logs.service.ts';

/** /logs: every API request of the project, with redacted bodies (owners, admins and full keys). */
export function logsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret', scope: 'full', role: 'admin' } as const;
    const tags = ['Request log'];

    app.get(
      '/logs',
      {
        config,
        schema: {
          tags,
          summary: "List the project's API requests",
          operationId: 'listLogs',
          description: logsRouteDocs.listLogs,
          querystring: logsQuery,
          response: { 200: listEnvelope(logEntrySchema), ...errors() },
        },
      },
      async (request) => {
        const { limit, cursor, ...filter } = request.query;
        return ok(
          await service.listLogs({ db: ctx.db, filter: { ...filter, projectId: projectOf(request) }, limit, cursor }),
        );
      },
    );

    app.get(
      '/logs/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get one API request',
          operationId: 'getLog',
          description: logsRouteDocs.getLog,
          params: idParams,
          response: { 200: envelope(logEntrySchema), ...errors(404) },
        },
      },
      async (request) => ok(await service.getLog({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
