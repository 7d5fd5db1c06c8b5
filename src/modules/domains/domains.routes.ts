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
import {
  dmarcSummary,
  dmarcSummarySchema,
  listTlsReports,
  reportPeriodQuery,
  tlsReportSchema,
} from './domains.reports.ts';

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
            dmarcReports: request.body.dmarcReports,
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

    app.get(
      '/domains/:id/dmarc',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "A domain's DMARC aggregate reports, summed up",
          operationId: 'getDomainDmarc',
          description:
            'The DMARC aggregate reports received for the domain (PATCH `dmarcReports: true` asks for them) whose ' +
            'period ends in [from, to) (default: the last 30 days): messages, the share that passed DMARC, each ' +
            "day's figures, and the sources — failures from sources that are not ours (SENDING_IPS, or DKIM passed " +
            "with the domain's own key) first.",
          params: idParams,
          querystring: reportPeriodQuery,
          response: { 200: envelope(dmarcSummarySchema), ...errors(404, 422) },
        },
      },
      async (request) =>
        ok(await dmarcSummary({ ctx, projectId: projectOf(request), id: request.params.id, ...request.query })),
    );

    app.get(
      '/domains/:id/tls-reports',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "A domain's TLS reports",
          operationId: 'listDomainTlsReports',
          description:
            'The TLS reports (RFC 8460) received for the domain whose period ends in [from, to) (default: the last ' +
            '30 days), the latest first, at most 200: who sent each, its policies, successful and failed sessions ' +
            'and the failures.',
          params: idParams,
          querystring: reportPeriodQuery,
          response: { 200: envelope(z.array(tlsReportSchema)), ...errors(404, 422) },
        },
      },
      async (request) =>
        ok(await listTlsReports({ ctx, projectId: projectOf(request), id: request.params.id, ...request.query })),
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
