import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { testTransport } from './transports.check.ts';
import { resealTransportSecrets } from './transports.reseal.ts';
import { getRouting, putRouting, testRouting } from './transports.routing.ts';
import {
  createTransportBody,
  putRoutingBody,
  routingSchema,
  routingTestBody,
  routingTestSchema,
  transportRouteDocs,
  transportSchema,
  transportTestSchema,
  updateTransportBody,
} from './transports.schemas.ts';
import * as service from './transports.service.ts';

/** /transports: the project's ways to hand mail over, besides the instance's own `default`. Owners and admins only. */
export function transportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Reads too are kept from viewers and read keys: a transport names the relays and accounts mail leaves through.
    const config = { auth: 'secret', scope: 'full', role: 'admin' } as const;
    const tags = ['Transports'];

    app.get(
      '/transports',
      {
        config,
        schema: {
          tags,
          summary: 'List transports',
          operationId: 'listTransports',
          description: transportRouteDocs.listTransports,
          querystring: paginationQuery,
          response: { 200: listEnvelope(transportSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listTransports({ ctx, projectId: projectOf(request), ...request.query })),
    );

    app.post(
      '/transports',
      {
        config,
        schema: {
          tags,
          summary: 'Add a transport',
          operationId: 'createTransport',
          description: transportRouteDocs.createTransport,
          body: createTransportBody,
          response: { 201: envelope(transportSchema), ...errors(409) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createTransport({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/transports/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get a transport',
          operationId: 'getTransport',
          params: idParams,
          response: { 200: envelope(transportSchema), ...errors(404) },
        },
      },
      async (request) => ok(await service.getTransport({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/transports/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Update a transport',
          operationId: 'updateTransport',
          description: transportRouteDocs.updateTransport,
          params: idParams,
          body: updateTransportBody,
          response: { 200: envelope(transportSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateTransport({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/transports/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Delete a transport',
          operationId: 'deleteTransport',
          description: transportRouteDocs.deleteTransport,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(await service.deleteTransport({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/transports/:id/test',
      {
        config,
        schema: {
          tags,
          summary: 'Test a transport’s connection',
          operationId: 'testTransport',
          description: transportRouteDocs.testTransport,
          params: idParams,
          response: { 200: envelope(transportTestSchema), ...errors(404) },
        },
      },
      async (request) => ok(await testTransport({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/routing',
      {
        config: { auth: 'secret', scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the routing rules',
          operationId: 'getRouting',
          description: transportRouteDocs.getRouting,
          response: { 200: envelope(routingSchema), ...errors() },
        },
      },
      async (request) => ok(await getRouting({ db: ctx.db, projectId: projectOf(request) })),
    );

    app.put(
      '/routing',
      {
        config,
        schema: {
          tags,
          summary: 'Replace the routing rules',
          operationId: 'putRouting',
          description: transportRouteDocs.putRouting,
          body: putRoutingBody,
          response: { 200: envelope(routingSchema), ...errors() },
        },
      },
      async (request) => ok(await putRouting({ ctx, projectId: projectOf(request), input: request.body })),
    );

    app.post(
      '/routing/test',
      {
        config,
        schema: {
          tags,
          summary: 'Which transport would an email take?',
          operationId: 'testRouting',
          description: transportRouteDocs.testRouting,
          body: routingTestBody,
          response: { 200: envelope(routingTestSchema), ...errors() },
        },
      },
      async (request) => ok(await testRouting({ ctx, projectId: projectOf(request), input: request.body })),
    );
  };
}

/** POST /admin/transports/reseal: what `herald reseal` does, done by the server that holds the embedded database. */
export function resealRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/admin/transports/reseal',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: 'Seal every transport secret again under APP_SECRET',
          operationId: 'resealTransportSecrets',
          description:
            'After a rotation of APP_SECRET (the old one kept as APP_SECRET_PREVIOUS): reads each transport secret ' +
            'with either and seals it under APP_SECRET. `unreadable` lists those neither opens (left unchanged).',
          response: {
            200: envelope(
              z.object({
                resealed: z.number().int(),
                unreadable: z.array(z.object({ id: z.string(), projectId: z.string(), name: z.string() })),
              }),
            ),
            ...errors(),
          },
        },
      },
      async () => ok(await resealTransportSecrets({ ctx })),
    );
  };
}
