import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { errors, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { eventNameSchema, eventRouteDocs, eventSchema, listEventsQuery } from './events.schemas.ts';
import * as service from './events.service.ts';

/** /events: the project's event log and its event names (secret key). */
export function eventRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Events'];

    app.get(
      '/events',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List events',
          operationId: 'listEvents',
          querystring: listEventsQuery,
          response: { 200: listEnvelope(eventSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listEvents({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/events/names',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List event names',
          operationId: 'listEventNames',
          description: eventRouteDocs.listEventNames,
          querystring: paginationQuery,
          response: { 200: listEnvelope(eventNameSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await service.listEventNames({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );
  };
}
