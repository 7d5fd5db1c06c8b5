import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { attachmentDisposition, envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  attachmentParams,
  inboundRouteDocs,
  inboundSchema,
  inboundSummarySchema,
  listInboundQuery,
} from './inbound.schemas.ts';
import * as service from './inbound.service.ts';

/** A stream reply: fastify sends it as is (the content schemas describe a string of bytes for the document only). */
const bytes = (stream: Readable) => stream as unknown as string;

/** Mail received at the project's receiving domains: list, read, raw source, attachments, delete. */
export function inboundRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Inbound'];

    app.get(
      '/inbound',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List received messages',
          operationId: 'listInbound',
          description: inboundRouteDocs.listInbound,
          querystring: listInboundQuery,
          response: { 200: listEnvelope(inboundSummarySchema), ...errors() },
        },
      },
      async (request) => ok(await service.listInbound({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/inbound/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a received message',
          operationId: 'getInbound',
          params: idParams,
          response: { 200: envelope(inboundSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getInbound({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/inbound/:id/raw',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Download a received message as received',
          operationId: 'getInboundRaw',
          description: inboundRouteDocs.getInboundRaw,
          params: idParams,
          response: {
            200: { description: 'The message', content: { 'message/rfc822': { schema: z.string() } } },
            ...errors(404, 410),
          },
        },
      },
      async (request, reply) => {
        const raw = await service.getInboundRaw({ db: ctx.db, projectId: projectOf(request), id: request.params.id });
        return reply
          .type('message/rfc822')
          .header('content-disposition', `attachment; filename="${request.params.id}.eml"`)
          .header('content-length', raw.size)
          .send(bytes(raw.content));
      },
    );

    app.get(
      '/inbound/:id/attachments/:attachmentId',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Download an attachment of a received message',
          operationId: 'getInboundAttachment',
          description: inboundRouteDocs.getInboundAttachment,
          params: attachmentParams,
          response: {
            200: {
              description: 'The attachment, with its own content type',
              content: { '*/*': { schema: z.string() } },
            },
            ...errors(404, 410),
          },
        },
      },
      async (request, reply) => {
        const attachment = await service.getInboundAttachment({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
          attachmentId: request.params.attachmentId,
        });
        return reply
          .type(attachment.contentType)
          .header('content-disposition', attachmentDisposition(attachment.filename))
          .header('x-content-type-options', 'nosniff')
          .header('content-length', attachment.size)
          .send(bytes(attachment.content));
      },
    );

    app.delete(
      '/inbound/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Delete a received message',
          operationId: 'deleteInbound',
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.deleteInbound({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
