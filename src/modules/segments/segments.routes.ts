import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { contactSchema } from '../contacts/index.ts';
import { addSegmentMembers, removeSegmentMembers } from './segments.members.ts';
import {
  countFilterQuery,
  filterCountSchema,
  createSegmentBody,
  membersAdded,
  membersBody,
  membersRemoved,
  segmentRouteDocs,
  segmentSchema,
  updateSegmentBody,
} from './segments.schemas.ts';
import * as service from './segments.service.ts';

/** /segments: saved audiences defined by a filter, and their members now. */
export function segmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Segments'];
    const deleted = envelope(z.object({ id: z.string(), deleted: z.literal(true) }));

    app.post(
      '/segments',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a segment',
          operationId: 'createSegment',
          description: segmentRouteDocs.createSegment,
          body: createSegmentBody,
          response: { 201: envelope(segmentSchema), ...errors() },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createSegment({ db: ctx.db, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/segments',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List segments',
          operationId: 'listSegments',
          querystring: paginationQuery,
          response: { 200: listEnvelope(segmentSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await service.listSegments({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/segments/count',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Count the contacts a filter matches',
          operationId: 'countSegmentFilter',
          description:
            'How many contacts match a filter now, without saving it (the segment builder counts as the filter is ' +
            'edited). The filter is checked as on save: a 422 names each offending path.',
          querystring: countFilterQuery,
          response: { 200: envelope(filterCountSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await service.countFilter({ db: ctx.db, projectId: projectOf(request), filter: request.query.filter })),
    );

    app.get(
      '/segments/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a segment',
          operationId: 'getSegment',
          params: idParams,
          response: { 200: envelope(segmentSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getSegment({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/segments/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a segment',
          operationId: 'updateSegment',
          description: segmentRouteDocs.updateSegment,
          params: idParams,
          body: updateSegmentBody,
          response: { 200: envelope(segmentSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateSegment({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/segments/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a segment',
          operationId: 'deleteSegment',
          description: segmentRouteDocs.deleteSegment,
          params: idParams,
          response: { 200: deleted, ...errors(404, 409) },
        },
      },
      async (request) => ok(await service.deleteSegment({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/segments/:id/contacts',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List the members of a segment',
          operationId: 'listSegmentContacts',
          description: 'The contacts matching the segment now, newest first.',
          params: idParams,
          querystring: paginationQuery,
          response: { 200: listEnvelope(contactSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(
          await service.listSegmentContacts({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            ...request.query,
          }),
        ),
    );

    app.post(
      '/segments/:id/members',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Add members to a list',
          operationId: 'addSegmentMembers',
          description: segmentRouteDocs.addSegmentMembers,
          params: idParams,
          body: membersBody,
          response: { 200: envelope(membersAdded), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await addSegmentMembers({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
            audited: true,
          }),
        ),
    );

    app.delete(
      '/segments/:id/members',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Remove members from a list',
          operationId: 'removeSegmentMembers',
          description: segmentRouteDocs.removeSegmentMembers,
          params: idParams,
          body: membersBody,
          response: { 200: envelope(membersRemoved), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await removeSegmentMembers({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
            audited: true,
          }),
        ),
    );
  };
}
