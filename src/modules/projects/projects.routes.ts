import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import * as service from './projects.service.ts';
import { newProjectSetup } from '../domains/index.ts';
import {
  apiKeySchema,
  createdKeySchema,
  createdProjectSchema,
  createKeyBody,
  createProjectBody,
  keyParams,
  projectSchema,
  updateProjectBody,
} from './projects.schemas.ts';

/** The admin API (bearer ADMIN_TOKEN): projects and their keys. */
export function projectRoutes(ctx: AppContext, onAuthChange: () => void): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'admin' } as const;
    const tags = ['Admin'];

    app.post(
      '/admin/projects',
      {
        config: { ...config, secretFields: ['secretKey', 'publicKey'] },
        schema: {
          tags,
          summary: 'Create a project',
          operationId: 'createProject',
          description: 'Answers the project with its first secret and public key, shown only now.',
          body: createProjectBody,
          response: { 201: envelope(createdProjectSchema), ...errors() },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(
          await service.createProject({
            db: ctx.db,
            name: request.body.name,
            ownerUserId: request.signedIn?.user.id ?? null,
            setup: newProjectSetup(ctx),
          }),
        );
      },
    );

    app.get(
      '/admin/projects',
      {
        config,
        schema: {
          tags,
          summary: 'List projects',
          operationId: 'listProjects',
          querystring: paginationQuery,
          response: { 200: listEnvelope(projectSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listProjects({ db: ctx.db, ...request.query })),
    );

    app.get(
      '/admin/projects/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get a project',
          operationId: 'getProject',
          params: idParams,
          response: { 200: envelope(projectSchema), ...errors(404) },
        },
      },
      async (request) => ok(await service.getProject({ db: ctx.db, id: request.params.id })),
    );

    app.patch(
      '/admin/projects/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Rename, disable or enable a project',
          operationId: 'updateProject',
          params: idParams,
          body: updateProjectBody,
          response: { 200: envelope(projectSchema), ...errors(404) },
        },
      },
      async (request) => {
        const project = await service.updateProject({
          db: ctx.db,
          holds: ctx.holds,
          id: request.params.id,
          ...request.body,
        });
        onAuthChange();
        return ok(project);
      },
    );

    app.post(
      '/admin/projects/:id/keys',
      {
        config: { ...config, secretFields: ['key'] },
        schema: {
          tags,
          summary: 'Create an API key',
          operationId: 'createApiKey',
          description: 'The key is shown only now.',
          params: idParams,
          body: createKeyBody,
          response: { 201: envelope(createdKeySchema), ...errors(404) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createApiKey({ ctx, projectId: request.params.id, ...request.body }));
      },
    );

    app.get(
      '/admin/projects/:id/keys',
      {
        config,
        schema: {
          tags,
          summary: 'List the API keys of a project',
          operationId: 'listApiKeys',
          description: 'Prefixes only; keys are never shown again.',
          params: idParams,
          response: { 200: envelope(z.object({ items: z.array(apiKeySchema) })), ...errors(404) },
        },
      },
      async (request) => ok({ items: await service.listApiKeys({ db: ctx.db, projectId: request.params.id }) }),
    );

    app.delete(
      '/admin/projects/:id/keys/:keyId',
      {
        config,
        schema: {
          tags,
          summary: 'Revoke an API key',
          operationId: 'revokeApiKey',
          params: keyParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) => {
        const { view } = await service.revokeApiKey({
          db: ctx.db,
          projectId: request.params.id,
          keyId: request.params.keyId,
        });
        onAuthChange();
        return ok({ id: view.id, deleted: true as const });
      },
    );
  };
}
