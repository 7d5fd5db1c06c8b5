import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import * as service from './projects.service.ts';
import {
  apiKeySchema, createdKeySchema, createdProjectSchema, createKeyBody, createProjectBody, keyParams, projectSchema, updateProjectBody,
} from './projects.schemas.ts';

/** The admin API (bearer ADMIN_TOKEN): projects and their keys. */
export function projectRoutes(ctx: AppContext, onAuthChange: () => void): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'admin' } as const;
    const tags = ['Admin'];

    app.post('/admin/projects', {
      config,
      schema: { tags, body: createProjectBody, response: { 201: envelope(createdProjectSchema), ...errorResponses } },
    }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createProject({ db: ctx.db, name: request.body.name }));
    });

    app.get('/admin/projects', {
      config,
      schema: { tags, querystring: paginationQuery, response: { 200: listEnvelope(projectSchema), ...errorResponses } },
    }, async (request) => ok(await service.listProjects({ db: ctx.db, ...request.query })));

    app.get('/admin/projects/:id', {
      config,
      schema: { tags, params: idParams, response: { 200: envelope(projectSchema), ...errorResponses } },
    }, async (request) => ok(await service.getProject({ db: ctx.db, id: request.params.id })));

    app.patch('/admin/projects/:id', {
      config,
      schema: { tags, params: idParams, body: updateProjectBody, response: { 200: envelope(projectSchema), ...errorResponses } },
    }, async (request) => {
      const project = await service.updateProject({ db: ctx.db, id: request.params.id, ...request.body });
      onAuthChange();
      return ok(project);
    });

    app.post('/admin/projects/:id/keys', {
      config,
      schema: { tags, params: idParams, body: createKeyBody, response: { 201: envelope(createdKeySchema), ...errorResponses } },
    }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createApiKey({ db: ctx.db, projectId: request.params.id, type: request.body.type }));
    });

    app.get('/admin/projects/:id/keys', {
      config,
      schema: { tags, params: idParams, response: { 200: envelope(z.object({ items: z.array(apiKeySchema) })), ...errorResponses } },
    }, async (request) => ok({ items: await service.listApiKeys({ db: ctx.db, projectId: request.params.id }) }));

    app.delete('/admin/projects/:id/keys/:keyId', {
      config,
      schema: { tags, params: keyParams, response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errorResponses } },
    }, async (request) => {
      const { view } = await service.revokeApiKey({ db: ctx.db, projectId: request.params.id, keyId: request.params.keyId });
      onAuthChange();
      return ok({ id: view.id, deleted: true as const });
    });
  };
}
