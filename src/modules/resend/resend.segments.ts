// Resend's segments (the SDK's `audiences` too) on Herald's lists: the project's STATIC segments.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { idParams } from '../../lib/http.ts';
import { nameSchema } from '../../lib/text.ts';
import { projectOf } from '../../plugins/auth.ts';
import { getContact } from '../contacts/index.ts';
import {
  createSegment,
  deleteSegment,
  getSegment,
  listSegmentContacts,
  listSegments,
  updateSegment,
} from '../segments/index.ts';
import { resendContactSchema, toResendContact } from './resend.contacts.map.ts';
import { resendErrors } from './resend.errors.ts';
import { resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { RESEND_READ, RESEND_TAG, RESEND_WRITE } from './resend.tag.ts';

export const resendSegmentSchema = z
  .object({ object: z.literal('segment'), id: z.string(), name: z.string(), created_at: z.string() })
  .meta({ id: 'ResendSegment' });

const segmentItem = resendSegmentSchema.omit({ object: true });
const segmentRef = z.object({ object: z.literal('segment'), id: z.string() });
const nameBody = z.object({ name: nameSchema() });

/** A segment view as Resend lists it. */
export const toResendSegmentItem = (segment: { id: string; name: string; createdAt: string }) => ({
  id: segment.id,
  name: segment.name,
  created_at: segment.createdAt,
});

/** A list of the project (a DYNAMIC segment is no Resend segment: 404), as Herald views it. */
export async function requireResendSegment(opts: { db: Executor; projectId: string; id: string }) {
  const segment = await getSegment(opts);
  if (segment.type !== 'STATIC') throw notFound('Segment');
  return segment;
}

/** Resend's segment routes, and the contacts of a segment (`contacts.list({ segmentId })`). */
export function resendSegmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [RESEND_TAG];

    app.post(
      '/segments',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Create a segment (Resend)',
          operationId: 'resendCreateSegment',
          description: 'A list: a STATIC segment, whose members are added and removed one by one.',
          body: nameBody,
          response: { 200: segmentRef.extend({ name: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const segment = await createSegment({
          db: ctx.db,
          projectId: projectOf(request),
          input: { name: request.body.name, type: 'STATIC' },
        });
        return { object: 'segment' as const, id: segment.id, name: segment.name };
      },
    );

    app.get(
      '/segments',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'List segments (Resend)',
          operationId: 'resendListSegments',
          description: "The project's lists (STATIC segments), newest first.",
          querystring: resendListQuery,
          response: { 200: resendList(segmentItem), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => requireResendSegment({ db: ctx.db, projectId, id }),
          (cursor) => listSegments({ db: ctx.db, projectId, limit: request.query.limit, cursor, type: 'STATIC' }),
          toResendSegmentItem,
        );
      },
    );

    app.get(
      '/segments/:id',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a segment (Resend)',
          operationId: 'resendGetSegment',
          params: idParams,
          response: { 200: resendSegmentSchema, ...resendErrors },
        },
      },
      async (request) => {
        const segment = await requireResendSegment({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
        });
        return { object: 'segment' as const, ...toResendSegmentItem(segment) };
      },
    );

    app.patch(
      '/segments/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Update a segment (Resend)',
          operationId: 'resendUpdateSegment',
          params: idParams,
          body: nameBody,
          response: { 200: segmentRef, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        await requireResendSegment({ db: ctx.db, projectId, id: request.params.id });
        const segment = await updateSegment({
          ctx,
          projectId,
          id: request.params.id,
          input: { name: request.body.name },
        });
        return { object: 'segment' as const, id: segment.id };
      },
    );

    app.delete(
      '/segments/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Delete a segment (Resend)',
          operationId: 'resendDeleteSegment',
          description: 'Its contacts stay. A list a campaign or workflow still uses cannot be deleted (409).',
          params: idParams,
          response: { 200: segmentRef.extend({ deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const segment = await requireResendSegment({ db: ctx.db, projectId, id: request.params.id });
        await deleteSegment({ ctx, projectId, id: segment.id });
        return { object: 'segment' as const, id: segment.id, deleted: true };
      },
    );

    app.get(
      '/segments/:id/contacts',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: "List a segment's contacts (Resend)",
          operationId: 'resendListSegmentContacts',
          description:
            "The SDK's `contacts.list({ segmentId })` (or `audienceId`): the members of a list, or the contacts a " +
            "Herald segment's filter matches now, newest first.",
          params: idParams,
          querystring: resendListQuery,
          response: { 200: resendList(resendContactSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => getContact({ db: ctx.db, projectId, id }),
          (cursor) =>
            listSegmentContacts({ db: ctx.db, projectId, id: request.params.id, limit: request.query.limit, cursor }),
          toResendContact,
        );
      },
    );
  };
}
