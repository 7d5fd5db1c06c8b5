import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import * as webhooks from '../webhooks/index.ts';
import { resendErrors } from './resend.errors.ts';
import { listItem, resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { RESEND_READ, RESEND_TAG } from './resend.tag.ts';
import {
  asEndpointField,
  createWebhookBody,
  resendWebhookSchema,
  toResendWebhookEvent,
  toResendEventItem,
  toResendWebhook,
  updateWebhookBody,
  webhookEventItem,
  webhookEventParams,
  webhookEventSchema,
  webhookRef,
  webhookWithSecret,
} from './resend.webhooks.map.ts';

/**
 * Resend's webhooks on Herald's endpoints: one made here has the `resend` format (Resend's event names and bodies,
 * signed with svix-* headers); a webhook's events are the endpoint's deliveries. Changes are an admin's, as in
 * Herald's own API.
 */
export function resendWebhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const write = { auth: 'secret', scope: 'full', role: 'admin' } as const;
    // Answers that show the signing secret: an idempotent replay leaves it out.
    const showsSecret = { ...write, secretFields: ['signing_secret'] };
    const tags = [RESEND_TAG];

    app.post(
      '/webhooks',
      {
        config: showsSecret,
        schema: {
          tags,
          summary: 'Create a webhook (Resend)',
          operationId: 'resendCreateWebhook',
          description: 'A Herald endpoint of the `resend` format; the signing secret is shown only now.',
          body: createWebhookBody,
          response: { 200: webhookWithSecret, ...resendErrors },
        },
      },
      async (request) => {
        const created = await asEndpointField(
          webhooks.createWebhook({
            ctx,
            projectId: projectOf(request),
            input: { url: request.body.endpoint, events: request.body.events, format: 'resend' },
          }),
        );
        return { object: 'webhook' as const, id: created.id, signing_secret: created.secret };
      },
    );

    app.get(
      '/webhooks',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'List webhooks (Resend)',
          operationId: 'resendListWebhooks',
          description: "Every endpoint of the project, newest first, Herald's own format included.",
          querystring: resendListQuery,
          response: { 200: resendList(resendWebhookSchema.omit({ object: true })), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => webhooks.getWebhook({ db: ctx.db, projectId, id }),
          (cursor) => webhooks.listWebhooks({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          (webhook) => listItem(toResendWebhook(webhook)),
        );
      },
    );

    app.get(
      '/webhooks/:id',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a webhook (Resend)',
          operationId: 'resendGetWebhook',
          description: 'Without its signing secret, which Herald shows only when it is made or rotated.',
          params: idParams,
          response: { 200: resendWebhookSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendWebhook(
          await webhooks.getWebhook({ db: ctx.db, projectId: projectOf(request), id: request.params.id }),
        ),
    );

    app.patch(
      '/webhooks/:id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Update a webhook (Resend)',
          operationId: 'resendUpdateWebhook',
          description: 'Its endpoint, events or status; enabling it again clears a failure that disabled it.',
          params: idParams,
          body: updateWebhookBody,
          response: { 200: webhookRef, ...resendErrors },
        },
      },
      async (request) => {
        const { endpoint, events, status } = request.body;
        const updated = await asEndpointField(
          webhooks.updateWebhook({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: {
              ...(endpoint !== undefined ? { url: endpoint } : {}),
              ...(events !== undefined ? { events } : {}),
              ...(status !== undefined ? { enabled: status === 'enabled' } : {}),
            },
          }),
        );
        return { object: 'webhook' as const, id: updated.id };
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Remove a webhook (Resend)',
          operationId: 'resendRemoveWebhook',
          description: 'Its queued events go with it.',
          params: idParams,
          response: { 200: webhookRef.extend({ deleted: z.literal(true) }), ...resendErrors },
        },
      },
      async (request) => {
        const { id } = await webhooks.deleteWebhook({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
        });
        return { object: 'webhook' as const, id, deleted: true as const };
      },
    );

    app.post(
      '/webhooks/:id/signing-secret/rotate',
      {
        config: showsSecret,
        schema: {
          tags,
          summary: "Rotate a webhook's signing secret (Resend)",
          operationId: 'resendRotateWebhookSecret',
          description: 'The new secret is shown only now; for 24 hours requests carry signatures by it and the old.',
          params: idParams,
          response: { 200: webhookWithSecret, ...resendErrors },
        },
      },
      async (request) => {
        const rotated = await webhooks.rotateWebhookSecret({
          ctx,
          projectId: projectOf(request),
          id: request.params.id,
        });
        return { object: 'webhook' as const, id: rotated.id, signing_secret: rotated.secret };
      },
    );

    app.get(
      '/webhooks/:id/events',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: "List a webhook's events (Resend)",
          operationId: 'resendListWebhookEvents',
          description: "The endpoint's deliveries, newest first.",
          params: idParams,
          querystring: resendListQuery,
          response: { 200: resendList(webhookEventItem), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const { id } = request.params;
        return resendListOf(
          request.query,
          (deliveryId) => webhooks.getWebhookDelivery({ db: ctx.db, projectId, id, deliveryId }),
          (cursor) => webhooks.listWebhookDeliveries({ db: ctx.db, projectId, id, limit: request.query.limit, cursor }),
          toResendEventItem,
        );
      },
    );

    app.get(
      '/webhooks/:id/events/:eventId',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a webhook event (Resend)',
          operationId: 'resendGetWebhookEvent',
          description: 'The delivery with the body it sends, its attempts so far and the last answer.',
          params: webhookEventParams,
          response: { 200: webhookEventSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendWebhookEvent(
          await webhooks.getWebhookDelivery({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            deliveryId: request.params.eventId,
          }),
        ),
    );

    app.post(
      '/webhooks/:id/events/:eventId/replay',
      {
        config: write,
        schema: {
          tags,
          summary: 'Replay a webhook event (Resend)',
          operationId: 'resendReplayWebhookEvent',
          description: 'Due again now, with the same body and svix-id; one being attempted right now is a 404.',
          params: webhookEventParams,
          response: { 200: z.object({ object: z.literal('webhook_event'), id: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const replayed = await webhooks.retryWebhookDelivery({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
          deliveryId: request.params.eventId,
        });
        return { object: 'webhook_event' as const, id: replayed.id };
      },
    );
  };
}
