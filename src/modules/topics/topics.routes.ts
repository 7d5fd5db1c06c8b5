import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  contactTopicsBody,
  contactTopicSchema,
  createTopicBody,
  topicRouteDocs,
  topicSchema,
  updateTopicBody,
} from './topics.schemas.ts';
import * as service from './topics.service.ts';

/** /topics and a contact's choices: what a contact agreed to hear about. */
export function topicRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Topics'];
    const deleted = envelope(z.object({ id: z.string(), deleted: z.literal(true) }));

    app.post(
      '/topics',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a topic',
          operationId: 'createTopic',
          body: createTopicBody,
          response: { 201: envelope(topicSchema), ...errors() },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createTopic({ db: ctx.db, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/topics',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List topics',
          operationId: 'listTopics',
          querystring: paginationQuery,
          response: { 200: listEnvelope(topicSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listTopics({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/topics/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a topic',
          operationId: 'getTopic',
          params: idParams,
          response: { 200: envelope(topicSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getTopic({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/topics/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a topic',
          operationId: 'updateTopic',
          description: 'Name and description; 409 when defaultSubscription would change.',
          params: idParams,
          body: updateTopicBody,
          response: { 200: envelope(topicSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateTopic({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/topics/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a topic',
          operationId: 'deleteTopic',
          params: idParams,
          response: { 200: deleted, ...errors(404, 409) },
          description: topicRouteDocs.deleteTopic,
        },
      },
      async (request) => ok(await service.deleteTopic({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/contacts/:id/topics',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "A contact's topic choices",
          operationId: 'listContactTopics',
          description: topicRouteDocs.listContactTopics,
          params: idParams,
          response: { 200: envelope(z.array(contactTopicSchema)), ...errors(404) },
        },
      },
      async (request) =>
        ok(
          await service.listContactTopics({ db: ctx.db, projectId: projectOf(request), contactId: request.params.id }),
        ),
    );

    app.patch(
      '/contacts/:id/topics',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: "Set a contact's topic choices",
          operationId: 'updateContactTopics',
          description: topicRouteDocs.updateContactTopics,
          params: idParams,
          body: contactTopicsBody,
          response: { 200: envelope(z.array(contactTopicSchema)), ...errors(404) },
        },
      },
      async (request) =>
        ok(
          await service.setContactTopics({
            db: ctx.db,
            projectId: projectOf(request),
            contactId: request.params.id,
            topics: request.body.topics,
          }),
        ),
    );
  };
}
