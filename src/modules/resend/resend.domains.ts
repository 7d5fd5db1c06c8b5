import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain, verifyDomain } from '../domains/index.ts';
import {
  resendDomainItemSchema,
  resendDomainSchema,
  toResendDomain,
  toResendDomainItem,
} from './resend.domains.map.ts';
import { resendErrors } from './resend.errors.ts';
import { cursorOf, resendList, resendListQuery, toResendList } from './resend.pagination.ts';
import { RESEND_TAG } from './resend.tag.ts';

const createBody = z.object({
  name: z.string().min(1).max(253),
  region: z.string().max(50).optional().describe('Accepted and ignored: Herald sends from where it runs'),
  custom_return_path: z
    .string()
    .max(63)
    .optional()
    .describe("Accepted and ignored: the return path is the operator's RETURN_PATH_HOST"),
});

const updateBody = z
  .object({
    capabilities: z
      .object({
        receiving: z.enum(['enabled', 'disabled']).optional(),
        sending: z.enum(['enabled', 'disabled']).optional(),
      })
      .optional()
      .describe('`receiving` turns receiving on or off (a verified domain only); sending is always on'),
    open_tracking: z.boolean().optional().describe('Accepted and ignored: tracking is chosen per send'),
    click_tracking: z.boolean().optional().describe('Accepted and ignored: tracking is chosen per send'),
    tls: z.enum(['enforced', 'opportunistic']).optional().describe('Accepted and ignored'),
  })
  .optional();

const domainRef = z.object({ object: z.literal('domain'), id: z.string() });

/** Resend's domain routes, on Herald's sender domains. */
export function resendDomainRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = [RESEND_TAG];

    app.post(
      '/domains',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Create a domain (Resend)',
          operationId: 'resendCreateDomain',
          body: createBody,
          response: { 200: resendDomainSchema.omit({ object: true }), ...resendErrors },
        },
      },
      async (request) => {
        const { object: _object, ...domain } = toResendDomain(
          await createDomain({ ctx, projectId: projectOf(request), domain: request.body.name }),
        );
        return domain;
      },
    );

    app.get(
      '/domains',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List domains (Resend)',
          operationId: 'resendListDomains',
          querystring: resendListQuery,
          response: { 200: resendList(resendDomainItemSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const cursor = await cursorOf(request.query, (id) => getDomain({ db: ctx.db, projectId, id }));
        return toResendList(
          await listDomains({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          toResendDomainItem,
        );
      },
    );

    app.get(
      '/domains/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Retrieve a domain (Resend)',
          operationId: 'resendGetDomain',
          params: idParams,
          response: { 200: resendDomainSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendDomain(await getDomain({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/domains/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Update a domain (Resend)',
          operationId: 'resendUpdateDomain',
          params: idParams,
          body: updateBody,
          response: { 200: domainRef, ...resendErrors },
        },
      },
      async (request) => {
        const receiving = request.body?.capabilities?.receiving;
        const domain = await updateDomain({
          ctx,
          projectId: projectOf(request),
          id: request.params.id,
          receiving: receiving === undefined ? undefined : receiving === 'enabled',
        });
        return { object: 'domain' as const, id: domain.id };
      },
    );

    app.post(
      '/domains/:id/verify',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Verify a domain (Resend)',
          operationId: 'resendVerifyDomain',
          description:
            'Looks the DNS records up now (Resend starts an asynchronous check); read the domain for its new status.',
          params: idParams,
          response: { 200: domainRef, ...resendErrors },
        },
      },
      async (request) => {
        const domain = await verifyDomain({ ctx, projectId: projectOf(request), id: request.params.id });
        return { object: 'domain' as const, id: domain.id };
      },
    );

    app.delete(
      '/domains/:id',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Delete a domain (Resend)',
          operationId: 'resendDeleteDomain',
          params: idParams,
          response: { 200: domainRef.extend({ deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const deleted = await deleteDomain({ db: ctx.db, projectId: projectOf(request), id: request.params.id });
        return { object: 'domain' as const, id: deleted.id, deleted: true };
      },
    );
  };
}
