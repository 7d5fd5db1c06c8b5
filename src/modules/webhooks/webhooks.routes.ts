import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  createWebhookBody,
  deliveriesQuery,
  deliveryParams,
  deliverySchema,
  updateWebhookBody,
  webhookRouteDocs,
  webhookSchema,
  webhookWithSecretSchema,
} from './webhooks.schemas.ts';
import * as service from './webhooks.service.ts';
import { testWebhook } from './webhooks.test-event.ts';

/** /webhooks: endpoints that receive the project's events, signed. */
export function webhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    // Responses that show the signing secret: an idempotent replay leaves it out (plugins/idempotency.ts).
    const showsSecret = { ...config, secretFields: ['secret'] };
    const tags = ['Webhooks'];
    const deleted = envelope(z.object({ id: z.string(), deleted: z.literal(true) }));

    app.post(
      '/webhooks',
      {
        config: { ...showsSecret, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Register a webhook endpoint',
          operationId: 'createWebhook',
          body: createWebhookBody,
          response: { 201: envelope(webhookWithSecretSchema), ...errorResponses },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createWebhook({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/webhooks',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List webhook endpoints',
          operationId: 'listWebhooks',
          querystring: paginationQuery,
          response: { 200: listEnvelope(webhookSchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.listWebhooks({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/webhooks/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a webhook endpoint',
          operationId: 'getWebhook',
          params: idParams,
          response: { 200: envelope(webhookSchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.getWebhook({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/webhooks/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Update a webhook endpoint',
          operationId: 'updateWebhook',
          params: idParams,
          body: updateWebhookBody,
          response: { 200: envelope(webhookSchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(
          await service.updateWebhook({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/webhooks/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Delete a webhook endpoint and its deliveries',
          operationId: 'deleteWebhook',
          params: idParams,
          response: { 200: deleted, ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.deleteWebhook({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        config: { ...showsSecret, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Rotate the signing secret',
          description: webhookRouteDocs.rotateWebhookSecret,
          operationId: 'rotateWebhookSecret',
          params: idParams,
          response: { 200: envelope(webhookWithSecretSchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.rotateWebhookSecret({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/webhooks/:id/test',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Send a webhook.test event now',
          description: webhookRouteDocs.testWebhook,
          operationId: 'testWebhook',
          params: idParams,
          response: { 200: envelope(deliverySchema), ...errorResponses },
        },
      },
      async (request) => ok(await testWebhook({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List deliveries of an endpoint',
          operationId: 'listWebhookDeliveries',
          params: idParams,
          querystring: paginationQuery.extend(deliveriesQuery.shape),
          response: { 200: listEnvelope(deliverySchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(
          await service.listWebhookDeliveries({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            ...request.query,
          }),
        ),
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/retry',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Retry a delivery now',
          description: 'Same body and webhook-id; answers the delivery, due now.',
          operationId: 'retryWebhookDelivery',
          params: deliveryParams,
          response: { 200: envelope(deliverySchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.retryWebhookDelivery({ db: ctx.db, projectId: projectOf(request), ...request.params })),
    );
  };
}
