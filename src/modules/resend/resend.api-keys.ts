import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, RouteHost } from '../../context.types.ts';
import { validationError } from '../../lib/errors.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { type ApiKeyView, createApiKey, listApiKeys, revokeOwnApiKey } from '../projects/index.ts';
import { resendErrors } from './resend.errors.ts';
import { pageOfList, resendList, resendListQuery } from './resend.pagination.ts';
import { RESEND_TAG } from './resend.tag.ts';

const createBody = z.object({
  name: z.string().trim().min(1).max(50),
  permission: z
    .enum(['full_access', 'sending_access'])
    .optional()
    .describe('`full_access` (the default) is a full key; `sending_access` a key with the sending scope'),
  domain_id: z
    .uuid({ message: 'must be the id of a domain of this project' })
    .optional()
    .describe('A sending_access key sends only from this domain (403 for any other sender)'),
});

const apiKeyItem = z
  .object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })
  .meta({ id: 'ResendApiKey' });

const toItem = (key: ApiKeyView): z.infer<typeof apiKeyItem> => ({
  id: key.id,
  name: key.name,
  created_at: key.createdAt,
  last_used_at: key.lastUsedAt,
});

/**
 * Resend's API keys on Herald's secret keys of the calling project: `full_access` is the full scope, `sending_access`
 * the sending scope, `domain_id` the sender domain a sending key is held to. Lists show live keys only (no revoked
 * ones, no dashboard session keys, no public keys).
 */
export function resendApiKeyRoutes(ctx: AppContext, host: RouteHost): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret', scope: 'full', role: 'admin' } as const;
    const tags = [RESEND_TAG];

    app.post(
      '/api-keys',
      {
        config: { ...config, secretFields: ['token'] },
        schema: {
          tags,
          summary: 'Create an API key (Resend)',
          operationId: 'resendCreateApiKey',
          description: 'The token is shown only now.',
          body: createBody,
          response: { 200: z.object({ id: z.string(), token: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const { name, permission, domain_id: domainId } = request.body;
        if (domainId !== undefined && permission !== 'sending_access')
          throw validationError(
            'domain_id',
            'domain_id: only a sending_access key can be restricted to a domain',
            'invalid',
          );
        const created = await createApiKey({
          ctx,
          projectId: projectOf(request),
          type: 'secret',
          name,
          scope: permission === 'sending_access' ? 'sending' : 'full',
          ...(domainId !== undefined ? { domainIds: [domainId] } : {}),
        });
        return { id: created.id, token: created.key };
      },
    );

    app.get(
      '/api-keys',
      {
        config,
        schema: {
          tags,
          summary: 'List API keys (Resend)',
          operationId: 'resendListApiKeys',
          description: 'Live secret keys, newest first.',
          querystring: resendListQuery,
          response: { 200: resendList(apiKeyItem), ...resendErrors },
        },
      },
      async (request) => {
        const keys = await listApiKeys({ db: ctx.db, projectId: projectOf(request) });
        const live = keys.filter((k) => k.type === 'secret' && !k.session && k.revokedAt === null).map(toItem);
        return pageOfList(live, request.query);
      },
    );

    app.delete(
      '/api-keys/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Remove an API key (Resend)',
          operationId: 'resendRemoveApiKey',
          description: 'The key stops working at once; a key cannot remove itself (401 restricted_api_key).',
          params: idParams,
          response: {
            200: z.object({ object: z.literal('api_key'), id: z.string(), deleted: z.literal(true) }),
            ...resendErrors,
          },
        },
      },
      async (request) => {
        const { view } = await revokeOwnApiKey({
          db: ctx.db,
          projectId: projectOf(request),
          keyId: request.params.id,
          callerKeyId: request.auth?.keyId ?? null,
        });
        host.clearKeyCache();
        return { object: 'api_key' as const, id: view.id, deleted: true as const };
      },
    );
  };
}
