import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  deleteContact,
  getContact,
  listContacts,
  requestSource,
  updateContact,
  upsertContact,
} from '../contacts/index.ts';
import { addSegmentMembers, requireListSegment } from '../segments/index.ts';
import { requireTopicIds, setContactTopics } from '../topics/index.ts';
import { checkPropertyTypes } from './resend.contact-properties.ts';
import { findResendContact } from './resend.contact-ref.ts';
import {
  dataPatchOf,
  resendContactBody,
  resendContactPatch,
  resendContactSchema,
  toResendContact,
} from './resend.contacts.map.ts';
import { resendErrors } from './resend.errors.ts';
import { cursorOf, resendList, resendListQuery, toResendList } from './resend.pagination.ts';
import { RESEND_TAG } from './resend.tag.ts';

const contactRef = z.object({ object: z.literal('contact'), id: z.string() });
const deleted = z.object({ object: z.literal('contact'), contact: z.string(), deleted: z.boolean() });
const idOrEmail = z.object({ id: z.string().describe("The contact's id or email address") });
const inAudience = z.object({
  audienceId: z.string().describe("Accepted and ignored: a project's contacts are its one audience"),
});

/**
 * Resend's contact routes on Herald's contacts, at /contacts and at the audience-scoped paths older SDKs call
 * (/audiences/{audienceId}/contacts…), where the audience is the project.
 */
export function resendContactRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = [RESEND_TAG];

    const findContact = (projectId: string, ref: string) => findResendContact({ db: ctx.db, projectId, ref });

    for (const scope of ['', '/audiences/:audienceId'] as const) {
      const scoped = scope !== '';
      const id = (name: string) => `resend${name}${scoped ? 'InAudience' : ''}`;
      const params = scoped ? idOrEmail.extend(inAudience.shape) : idOrEmail;

      app.post(
        `${scope}/contacts`,
        {
          config: { ...config, scope: 'full', role: 'editor' },
          schema: {
            tags,
            summary: `Create a contact (Resend${scoped ? ', audience path' : ''})`,
            operationId: id('CreateContact'),
            description:
              'Creates the contact, or updates the one with this email (Herald keeps one contact per address).',
            ...(scoped ? { params: inAudience } : {}),
            body: resendContactBody,
            response: { 200: contactRef, ...resendErrors },
          },
        },
        async (request) => {
          const body = request.body;
          const projectId = projectOf(request);
          await checkPropertyTypes({ db: ctx.db, projectId, properties: body.properties });
          const segmentIds = (body.segments ?? []).map((segment) => segment.id);
          for (const id of segmentIds) await requireListSegment({ db: ctx.db, projectId, id });
          const topics = body.topics ?? [];
          const topicIds = topics.map((topic) => topic.id);
          if (topicIds.length > 0) await requireTopicIds({ db: ctx.db, projectId, ids: topicIds, field: 'topics' });
          const { contact } = await upsertContact({
            db: ctx.db,
            projectId,
            email: body.email,
            subscribed: body.unsubscribed === undefined ? undefined : !body.unsubscribed,
            data: dataPatchOf(body),
            consent: requestSource(),
          });
          for (const id of segmentIds)
            await addSegmentMembers({ db: ctx.db, projectId, id, input: { contactIds: [contact.id] }, audited: true });
          if (topics.length > 0) {
            const choices = topics.map((topic) => ({ id: topic.id, subscribed: topic.subscription === 'opt_in' }));
            await setContactTopics({ db: ctx.db, projectId, contactId: contact.id, topics: choices });
          }
          return { object: 'contact' as const, id: contact.id };
        },
      );

      app.get(
        `${scope}/contacts`,
        {
          config: { ...config, scope: 'read', role: 'viewer' },
          schema: {
            tags,
            summary: `List contacts (Resend${scoped ? ', audience path' : ''})`,
            operationId: id('ListContacts'),
            ...(scoped ? { params: inAudience } : {}),
            querystring: resendListQuery,
            response: { 200: resendList(resendContactSchema), ...resendErrors },
          },
        },
        async (request) => {
          const projectId = projectOf(request);
          const cursor = await cursorOf(request.query, (contactId) =>
            getContact({ db: ctx.db, projectId, id: contactId }),
          );
          return toResendList(
            await listContacts({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
            toResendContact,
          );
        },
      );

      app.get(
        `${scope}/contacts/:id`,
        {
          config: { ...config, scope: 'read', role: 'viewer' },
          schema: {
            tags,
            summary: `Retrieve a contact (Resend${scoped ? ', audience path' : ''})`,
            operationId: id('GetContact'),
            params,
            response: { 200: resendContactSchema, ...resendErrors },
          },
        },
        async (request) => toResendContact(await findContact(projectOf(request), request.params.id)),
      );

      app.patch(
        `${scope}/contacts/:id`,
        {
          config: { ...config, scope: 'full', role: 'editor' },
          schema: {
            tags,
            summary: `Update a contact (Resend${scoped ? ', audience path' : ''})`,
            operationId: id('UpdateContact'),
            params,
            body: resendContactPatch,
            response: { 200: contactRef, ...resendErrors },
          },
        },
        async (request) => {
          const projectId = projectOf(request);
          const found = await findContact(projectId, request.params.id);
          const body = request.body ?? {};
          await checkPropertyTypes({ db: ctx.db, projectId, properties: body.properties });
          const contact = await updateContact({
            db: ctx.db,
            projectId,
            id: found.id,
            audited: true,
            subscribed: body.unsubscribed === undefined ? undefined : !body.unsubscribed,
            data: dataPatchOf(body),
            consent: requestSource(),
          });
          return { object: 'contact' as const, id: contact.id };
        },
      );

      app.delete(
        `${scope}/contacts/:id`,
        {
          config: { ...config, scope: 'full', role: 'editor' },
          schema: {
            tags,
            summary: `Delete a contact (Resend${scoped ? ', audience path' : ''})`,
            operationId: id('DeleteContact'),
            params,
            response: { 200: deleted, ...resendErrors },
          },
        },
        async (request) => {
          const projectId = projectOf(request);
          const found = await findContact(projectId, request.params.id);
          await deleteContact({ ctx, projectId, id: found.id });
          return { object: 'contact' as const, contact: found.id, deleted: true };
        },
      );
    }
  };
}
