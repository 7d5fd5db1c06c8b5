// Resend's topics on Herald's. Resend's `opt_in` default (everyone receives it unless they opt out) is Herald's
// OPT_OUT, and Resend's `opt_out` (only those who opt in) is Herald's OPT_IN.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { TopicDefault } from '../../db/schema/index.ts';
import { idParams } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';
import { projectOf } from '../../plugins/auth.ts';
import { createTopic, deleteTopic, getTopic, listTopics, updateTopic } from '../topics/index.ts';
import { resendErrors } from './resend.errors.ts';
import { listItem, resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { RESEND_READ, RESEND_TAG, RESEND_WRITE } from './resend.tag.ts';

const subscription = z.enum(['opt_in', 'opt_out']);
const description = z.string().max(2000).nullable().optional();

const resendTopicSchema = z
  .object({
    object: z.literal('topic'),
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    default_subscription: subscription,
    created_at: z.string(),
  })
  .meta({ id: 'ResendTopic' });

const topicRef = z.object({ object: z.literal('topic'), id: z.string() });

const createBody = z.object({
  name: nameSchema(),
  description,
  default_subscription: subscription.describe(
    '`opt_in`: every contact receives what is sent to the topic unless they opt out; `opt_out`: only those who ' +
      'opt in. It cannot change later',
  ),
});

const updateBody = z.object({ name: nameSchema().optional(), description });

const toHerald = (value: z.infer<typeof subscription>): TopicDefault => (value === 'opt_in' ? 'OPT_OUT' : 'OPT_IN');

/** A Herald topic as Resend answers it. */
function toResendTopic(topic: {
  id: string;
  name: string;
  description: string | null;
  defaultSubscription: TopicDefault;
  createdAt: string;
}): z.infer<typeof resendTopicSchema> {
  return {
    object: 'topic',
    id: topic.id,
    name: topic.name,
    description: topic.description,
    default_subscription: topic.defaultSubscription === 'OPT_OUT' ? 'opt_in' : 'opt_out',
    created_at: topic.createdAt,
  };
}

/** Resend's topic routes. */
export function resendTopicRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [RESEND_TAG];

    app.post(
      '/topics',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Create a topic (Resend)',
          operationId: 'resendCreateTopic',
          body: createBody,
          response: { 200: topicRef, ...resendErrors },
        },
      },
      async (request) => {
        const { name, description, default_subscription } = request.body;
        const topic = await createTopic({
          db: ctx.db,
          projectId: projectOf(request),
          input: { name, description, defaultSubscription: toHerald(default_subscription) },
        });
        return { object: 'topic' as const, id: topic.id };
      },
    );

    app.get(
      '/topics',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'List topics (Resend)',
          operationId: 'resendListTopics',
          querystring: resendListQuery,
          response: { 200: resendList(resendTopicSchema.omit({ object: true })), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => getTopic({ db: ctx.db, projectId, id }),
          (cursor) => listTopics({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          (topic) => listItem(toResendTopic(topic)),
        );
      },
    );

    app.get(
      '/topics/:id',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a topic (Resend)',
          operationId: 'resendGetTopic',
          params: idParams,
          response: { 200: resendTopicSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendTopic(await getTopic({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/topics/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Update a topic (Resend)',
          operationId: 'resendUpdateTopic',
          description: 'Its name and description; the default subscription is fixed when the topic is created.',
          params: idParams,
          body: updateBody,
          response: { 200: topicRef, ...resendErrors },
        },
      },
      async (request) => {
        const topic = await updateTopic({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
          input: { name: request.body.name, description: request.body.description },
        });
        return { object: 'topic' as const, id: topic.id };
      },
    );

    app.delete(
      '/topics/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Delete a topic (Resend)',
          operationId: 'resendDeleteTopic',
          description: "The contacts' choices go with it; a topic an unsent campaign is limited to cannot go (409).",
          params: idParams,
          response: { 200: topicRef.extend({ deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const topic = await getTopic({ db: ctx.db, projectId, id: request.params.id });
        await deleteTopic({ ctx, projectId, id: topic.id });
        return { object: 'topic' as const, id: topic.id, deleted: true };
      },
    );
  };
}
