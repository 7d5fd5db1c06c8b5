import { blocklistEntrySchema, checkBlocklistsNow, listDomainBlocklists } from './domains.blocklists.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  createDomainBody,
  domainRouteDocs,
  domainSchema,
  listDomainsQuery,
  updateDomainBody,
} from './domains.schemas.ts';
import * as service from './domains.service.ts';

/** Sender domains: add (DKIM key + records), verify DNS, list, read, delete. */
export function domainRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Domains'];

    app.post(
      '/domains',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Add a sender domain',
          operationId: 'createDomain',
          description: domainRouteDocs.createDomain,
          body: createDomainBody,
          response: { 201: envelope(domainSchema), ...errors(409) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createDomain({ ctx, projectId: projectOf(request), domain: request.body.domain }));
      },
    );

    app.get(
      '/domains',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List sender domains',
          operationId: 'listDomains',
          querystring: listDomainsQuery,
          response: { 200: listEnvelope(domainSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listDomains({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/domains/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a sender domain',
          operationId: 'getDomain',
          params: idParams,
          response: { 200: envelope(domainSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getDomain({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/domains/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Update a sender domain',
          operationId: 'updateDomain',
          description: domainRouteDocs.updateDomain,
          params: idParams,
          body: updateDomainBody,
          response: { 200: envelope(domainSchema), ...errors(404, 409, 422) },
        },
      },
      async (request) =>
        ok(
          await service.updateDomain({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            receiving: request.body.receiving,
            trackingHost: request.body.trackingHost,
            providerLimits: request.body.providerLimits,
            warmup: request.body.warmup,
          }),
        ),
    );

    app.post(
      '/domains/:id/verify',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Verify a sender domain now',
          operationId: 'verifyDomain',
          description: domainRouteDocs.verifyDomain,
          params: idParams,
          response: { 200: envelope(domainSchema), ...errors(404, 409) },
        },
      },
      async (request) => ok(await service.verifyDomain({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/domains/:id/blocklists',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "A domain's blocklist lookups",
          operationId: 'listDomainBlocklists',
          description:
            'The latest answers of the blocklists (DNSBL_DOMAIN_ZONES for the domain and its tracking host, ' +
            'DNSBL_IP_ZONES for SENDING_IPS), looked up every hour, when the domain becomes verified, and on ' +
            'demand. `listed: null`: the lookup failed or the blocklist refused it, never a listing. Empty before ' +
            'the first lookup.',
          params: idParams,
          response: { 200: envelope(z.array(blocklistEntrySchema)), ...errors(404) },
        },
      },
      async (request) =>
        ok(await listDomainBlocklists({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/domains/:id/blocklists/check',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Look a domain up in the blocklists now',
          operationId: 'checkDomainBlocklists',
          description:
            'Every blocklist lookup of the domain now (its name, its tracking host, the sending IPs); a name ' +
            'that became listed raises `domain.blocklisted`, one no longer listed `domain.delisted`.',
          params: idParams,
          response: { 200: envelope(z.array(blocklistEntrySchema)), ...errors(404) },
        },
      },
      async (request) => ok(await checkBlocklistsNow({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.delete(
      '/domains/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Delete a sender domain',
          operationId: 'deleteDomain',
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.deleteDomain({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
