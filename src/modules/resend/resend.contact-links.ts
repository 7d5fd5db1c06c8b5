// A contact's segments and topics in Resend's shapes: its lists (Herald's STATIC segments) and its topic choices.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { projectOf } from '../../plugins/auth.ts';
import { addSegmentMembers, listSegments, removeSegmentMembers } from '../segments/index.ts';
import { listContactTopicChoices, setContactTopics } from '../topics/index.ts';
import { findResendContact } from './resend.contact-ref.ts';
import { resendErrors } from './resend.errors.ts';
import { pageOfList, resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { requireResendSegment, resendSegmentSchema, toResendSegmentItem } from './resend.segments.ts';
import { RESEND_READ, RESEND_TAG, RESEND_WRITE } from './resend.tag.ts';

const contactParams = z.object({ id: z.string().describe("The contact's id or email address") });
const membershipParams = contactParams.extend({ segmentId: z.string() });
const subscription = z.enum(['opt_in', 'opt_out']);

const contactTopicSchema = z
  .object({ id: z.string(), name: z.string(), description: z.string().nullable(), subscription })
  .meta({ id: 'ResendContactTopic' });

const topicChoices = z
  .array(z.object({ id: z.string().max(100), subscription }))
  .max(100)
  .describe('The choices: `opt_in` receives what is sent to the topic, `opt_out` does not');
const topicsBody = z.union([topicChoices, z.object({ topics: topicChoices })]);

/** Resend's /contacts/{id or email}/segments and /contacts/{id or email}/topics routes. */
export function resendContactLinkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [RESEND_TAG];
    const contactOf = (projectId: string, ref: string) => findResendContact({ db: ctx.db, projectId, ref });

    app.get(
      '/contacts/:id/segments',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: "List a contact's segments (Resend)",
          operationId: 'resendListContactSegments',
          description: 'The lists the contact is on, newest first.',
          params: contactParams,
          querystring: resendListQuery,
          response: { 200: resendList(resendSegmentSchema.omit({ object: true })), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const contact = await contactOf(projectId, request.params.id);
        return resendListOf(
          request.query,
          (id) => requireResendSegment({ db: ctx.db, projectId, id }),
          (cursor) =>
            listSegments({
              db: ctx.db,
              projectId,
              limit: request.query.limit,
              cursor,
              type: 'STATIC',
              memberId: contact.id,
            }),
          toResendSegmentItem,
        );
      },
    );

    app.post(
      '/contacts/:id/segments/:segmentId',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Add a contact to a segment (Resend)',
          operationId: 'resendAddContactSegment',
          description: 'Adds the contact to a list (a DYNAMIC segment follows its filter: 409).',
          params: membershipParams,
          response: { 200: z.object({ id: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const contact = await contactOf(projectId, request.params.id);
        await addSegmentMembers({
          db: ctx.db,
          projectId,
          id: request.params.segmentId,
          input: { contactIds: [contact.id] },
          audited: true,
        });
        return { id: request.params.segmentId.toLowerCase() };
      },
    );

    app.delete(
      '/contacts/:id/segments/:segmentId',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Remove a contact from a segment (Resend)',
          operationId: 'resendRemoveContactSegment',
          params: membershipParams,
          response: { 200: z.object({ id: z.string(), deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const contact = await contactOf(projectId, request.params.id);
        const { removed } = await removeSegmentMembers({
          db: ctx.db,
          projectId,
          id: request.params.segmentId,
          input: { contactIds: [contact.id] },
          audited: true,
        });
        return { id: request.params.segmentId.toLowerCase(), deleted: removed > 0 };
      },
    );

    app.get(
      '/contacts/:id/topics',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: "List a contact's topics (Resend)",
          operationId: 'resendListContactTopics',
          description:
            "Every topic of the project with the contact's choice, or the topic's default where it made none.",
          params: contactParams,
          querystring: resendListQuery,
          response: { 200: resendList(contactTopicSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const contact = await contactOf(projectId, request.params.id);
        const topics = await listContactTopicChoices({ db: ctx.db, projectId, contactId: contact.id });
        const newestFirst = topics.reverse().map((topic) => ({
          id: topic.topicId,
          name: topic.name,
          description: topic.description,
          subscription: topic.subscribed ? ('opt_in' as const) : ('opt_out' as const),
        }));
        return pageOfList(newestFirst, request.query);
      },
    );

    app.patch(
      '/contacts/:id/topics',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: "Update a contact's topics (Resend)",
          operationId: 'resendUpdateContactTopics',
          description: 'The body is the list of choices (as the SDK sends it), or `{ "topics": [...] }`.',
          params: contactParams,
          body: topicsBody,
          response: { 200: z.object({ id: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const contact = await contactOf(projectId, request.params.id);
        const choices = Array.isArray(request.body) ? request.body : request.body.topics;
        await setContactTopics({
          db: ctx.db,
          projectId,
          contactId: contact.id,
          topics: choices.map((choice) => ({ id: choice.id, subscribed: choice.subscription === 'opt_in' })),
        });
        return { id: contact.id };
      },
    );
  };
}
