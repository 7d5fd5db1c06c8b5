import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { createTemplateBody, listTemplatesQuery, templateSchema, updateTemplateBody } from './templates.schemas.ts';
import * as service from './templates.service.ts';

/** Email templates (Liquid): create, list, read, update, delete. */
export function templateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Templates'];

    app.post('/templates', { config, schema: { tags, body: createTemplateBody, response: { 201: envelope(templateSchema), ...errorResponses } } }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createTemplate({ ctx, projectId: projectOf(request), input: request.body }));
    });

    app.get('/templates', { config, schema: { tags, querystring: listTemplatesQuery, response: { 200: listEnvelope(templateSchema), ...errorResponses } } },
      async (request) => ok(await service.listTemplates({ ctx, projectId: projectOf(request), ...request.query })));

    app.get('/templates/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(templateSchema), ...errorResponses } } },
      async (request) => ok(await service.getTemplate({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.patch('/templates/:id', { config, schema: { tags, params: idParams, body: updateTemplateBody, response: { 200: envelope(templateSchema), ...errorResponses } } },
      async (request) => ok(await service.updateTemplate({ ctx, projectId: projectOf(request), id: request.params.id, input: request.body })));

    app.delete('/templates/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errorResponses } } },
      async (request) => ok(await service.deleteTemplate({ ctx, projectId: projectOf(request), id: request.params.id })));
  };
}
