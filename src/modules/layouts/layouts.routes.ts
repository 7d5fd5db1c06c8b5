import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { createLayoutBody, layoutRouteDocs, layoutSchema, updateLayoutBody } from './layouts.schemas.ts';
import * as service from './layouts.service.ts';

/** Layouts: the frames templates and campaigns are put in. */
export function layoutRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Layouts'];

    app.post(
      '/layouts',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a layout',
          operationId: 'createLayout',
          description: layoutRouteDocs.createLayout,
          body: createLayoutBody,
          response: { 201: envelope(layoutSchema), ...errors() },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createLayout({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/layouts',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List layouts',
          operationId: 'listLayouts',
          querystring: paginationQuery,
          response: { 200: listEnvelope(layoutSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listLayouts({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/layouts/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a layout',
          operationId: 'getLayout',
          params: idParams,
          response: { 200: envelope(layoutSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getLayout({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/layouts/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a layout',
          operationId: 'updateLayout',
          description: layoutRouteDocs.updateLayout,
          params: idParams,
          body: updateLayoutBody,
          response: { 200: envelope(layoutSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(
          await service.updateLayout({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/layouts/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a layout',
          operationId: 'deleteLayout',
          description: layoutRouteDocs.deleteLayout,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404, 409) },
        },
      },
      async (request) => ok(await service.deleteLayout({ ctx, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
