import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError } from '../../lib/errors.ts';
import { envelope, errors, idParams, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import * as service from './projects.service.ts';
import {
  apiKeySchema,
  createdKeySchema,
  createOwnKeyBody,
  currentKeySchema,
  projectRouteDocs,
} from './projects.schemas.ts';

const deleted = envelope(z.object({ id: z.string(), deleted: z.literal(true) }));

/** The key making the request; a signed-in person has none (403). */
function callingKey(request: FastifyRequest): string {
  const keyId = request.auth?.keyId;
  if (!keyId)
    throw new AppError('FORBIDDEN', 'This request is made by a signed-in person, not a key', {
      suggestion: 'GET /auth/session describes who is signed in.',
    });
  return keyId;
}

/** A project's own keys, managed with one of its full secret keys (the admin API can do the same for any project). */
export function apiKeyRoutes(ctx: AppContext, onAuthChange: () => void): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Keys'];

    app.get(
      '/api-keys',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'List the keys of this project',
          operationId: 'listOwnApiKeys',
          description: projectRouteDocs.listOwnApiKeys,
          response: { 200: envelope(z.object({ items: z.array(apiKeySchema) })), ...errors(403) },
        },
      },
      async (request) => ok({ items: await service.listApiKeys({ db: ctx.db, projectId: projectOf(request) }) }),
    );

    app.post(
      '/api-keys',
      {
        config: { ...config, secretFields: ['key'], scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Create a key',
          operationId: 'createOwnApiKey',
          description: projectRouteDocs.createOwnApiKey,
          body: createOwnKeyBody,
          response: { 201: envelope(createdKeySchema), ...errors(403) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(
          await service.createApiKey({
            ctx,
            projectId: projectOf(request),
            ...request.body,
            type: request.body.type ?? 'secret',
          }),
        );
      },
    );

    app.delete(
      '/api-keys/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Revoke a key',
          operationId: 'revokeOwnApiKey',
          description: 'It stops working at once. A key cannot revoke itself (403).',
          params: idParams,
          response: { 200: deleted, ...errors(403, 404) },
        },
      },
      async (request) => {
        const { view } = await service.revokeOwnApiKey({
          db: ctx.db,
          projectId: projectOf(request),
          keyId: request.params.id,
          callerKeyId: request.auth!.keyId,
        });
        onAuthChange();
        return ok({ id: view.id, deleted: true as const });
      },
    );

    app.get(
      '/api-keys/current',
      {
        config: { ...config, scope: ['read', 'sending'], role: 'viewer' },
        schema: {
          tags: ['Keys'],
          summary: 'Get the key making this request, with its project',
          operationId: 'getCurrentApiKey',
          description: projectRouteDocs.getCurrentApiKey,
          response: { 200: envelope(currentKeySchema), ...errors() },
        },
      },
      async (request) => ok(await service.getCurrentKey({ db: ctx.db, keyId: callingKey(request) })),
    );

    app.delete(
      '/api-keys/current',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags: ['Keys'],
          summary: 'Revoke the session key making this request',
          operationId: 'revokeCurrentSessionKey',
          description: projectRouteDocs.revokeCurrentSessionKey,
          response: { 200: deleted, ...errors(403) },
        },
      },
      async (request) => {
        const view = await service.revokeCurrentSessionKey({ db: ctx.db, keyId: callingKey(request) });
        onAuthChange();
        return ok({ id: view.id, deleted: true as const });
      },
    );
  };
}
