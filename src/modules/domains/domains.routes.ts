import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { createDomainBody, domainSchema, listDomainsQuery } from './domains.schemas.ts';
import * as service from './domains.service.ts';

/** Sender domains: add (DKIM key + records), verify DNS, list, read, delete. */
export function domainRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Domains'];

    app.post('/domains', { config, schema: { tags, body: createDomainBody, response: { 201: envelope(domainSchema), ...errorResponses } } }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createDomain({ ctx, projectId: projectOf(request), domain: request.body.domain }));
    });

    app.get('/domains', { config, schema: { tags, querystring: listDomainsQuery, response: { 200: listEnvelope(domainSchema), ...errorResponses } } },
      async (request) => ok(await service.listDomains({ ctx, projectId: projectOf(request), ...request.query })));

    app.get('/domains/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(domainSchema), ...errorResponses } } },
      async (request) => ok(await service.getDomain({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.post('/domains/:id/verify', { config, schema: { tags, params: idParams, response: { 200: envelope(domainSchema), ...errorResponses } } },
      async (request) => ok(await service.verifyDomain({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.delete('/domains/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errorResponses } } },
      async (request) => ok(await service.deleteDomain({ ctx, projectId: projectOf(request), id: request.params.id })));
  };
}
