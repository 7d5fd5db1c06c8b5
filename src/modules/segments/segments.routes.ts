import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { contactSchema } from '../contacts/index.ts';
import { createSegmentBody, segmentSchema, updateSegmentBody } from './segments.schemas.ts';
import * as service from './segments.service.ts';

/** /segments: saved audiences defined by a filter, and their members now. */
export function segmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Segments'];
    const deleted = envelope(z.object({ id: z.string(), deleted: z.literal(true) }));

    app.post('/segments', { config, schema: { tags, body: createSegmentBody, response: { 201: envelope(segmentSchema), ...errorResponses } } }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createSegment({ db: ctx.db, projectId: projectOf(request), input: request.body }));
    });

    app.get('/segments', { config, schema: { tags, querystring: paginationQuery, response: { 200: listEnvelope(segmentSchema), ...errorResponses } } },
      async (request) => ok(await service.listSegments({ db: ctx.db, projectId: projectOf(request), ...request.query })));

    app.get('/segments/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(segmentSchema), ...errorResponses } } },
      async (request) => ok(await service.getSegment({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));

    app.patch('/segments/:id', { config, schema: { tags, params: idParams, body: updateSegmentBody, response: { 200: envelope(segmentSchema), ...errorResponses } } },
      async (request) => ok(await service.updateSegment({ db: ctx.db, projectId: projectOf(request), id: request.params.id, input: request.body })));

    app.delete('/segments/:id', {
      config,
      schema: { tags, description: 'Deletes a segment; 409 while another segment or a draft, scheduled or sending campaign uses it.', params: idParams, response: { 200: deleted, ...errorResponses } },
    }, async (request) => ok(await service.deleteSegment({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));

    app.get('/segments/:id/contacts', {
      config,
      schema: { tags, description: 'The contacts matching the segment now, newest first.', params: idParams, querystring: paginationQuery, response: { 200: listEnvelope(contactSchema), ...errorResponses } },
    }, async (request) => ok(await service.listSegmentContacts({ db: ctx.db, projectId: projectOf(request), id: request.params.id, ...request.query })));
  };
}
