import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  createTemplateBody,
  listTemplatesQuery,
  templateRouteDocs,
  templateSchema,
  templateVersionSchema,
  templateVersionSummary,
  updateTemplateBody,
  versionParams,
} from './templates.schemas.ts';
import * as service from './templates.service.ts';
import { checkTemplate } from './templates.check.ts';
import { checkResultSchema } from '../checks/index.ts';

/** Email templates (Liquid): create, list, read, update, delete. */
export function templateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Templates'];

    app.post(
      '/templates',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a template',
          operationId: 'createTemplate',
          description: templateRouteDocs.createTemplate,
          body: createTemplateBody,
          response: { 201: envelope(templateSchema), ...errors() },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createTemplate({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/templates',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List templates',
          operationId: 'listTemplates',
          querystring: listTemplatesQuery,
          response: { 200: listEnvelope(templateSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await service.listTemplates({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/templates/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a template',
          operationId: 'getTemplate',
          params: idParams,
          response: { 200: envelope(templateSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getTemplate({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/templates/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a template',
          operationId: 'updateTemplate',
          params: idParams,
          body: updateTemplateBody,
          description: templateRouteDocs.updateTemplate,
          response: { 200: envelope(templateSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateTemplate({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/templates/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a template',
          operationId: 'deleteTemplate',
          description: templateRouteDocs.deleteTemplate,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(await service.deleteTemplate({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/templates/:id/check',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Check a template before sending',
          operationId: 'checkTemplate',
          description:
            'The pre-send check of the published version (every translation too): content, links, sender ' +
            'domain, each issue with a fix, and a score. A MARKETING template is held to an unsubscribe link. ' +
            'Changes nothing.',
          params: idParams,
          response: { 200: envelope(checkResultSchema), ...errors(404) },
        },
      },
      async (request) => ok(await checkTemplate(ctx, projectOf(request), request.params.id)),
    );

    app.post(
      '/templates/:id/publish',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Publish the draft',
          operationId: 'publishTemplate',
          description: templateRouteDocs.publishTemplate,
          params: idParams,
          response: { 200: envelope(templateSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(await service.publishTemplate({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/templates/:id/versions',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "List a template's versions",
          operationId: 'listTemplateVersions',
          description: templateRouteDocs.listTemplateVersions,
          params: idParams,
          response: { 200: envelope(z.array(templateVersionSummary)), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.listVersions({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/templates/:id/versions/:version',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a version of a template',
          operationId: 'getTemplateVersion',
          params: versionParams,
          response: { 200: envelope(templateVersionSchema), ...errors(404) },
        },
      },
      async (request) => ok(await service.getVersion({ db: ctx.db, projectId: projectOf(request), ...request.params })),
    );

    app.post(
      '/templates/:id/versions/:version/restore',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Restore a version as the draft',
          operationId: 'restoreTemplateVersion',
          description: templateRouteDocs.restoreTemplateVersion,
          params: versionParams,
          response: { 200: envelope(templateSchema), ...errors(404, 409) },
        },
      },
      async (request) => ok(await service.restoreVersion({ ctx, projectId: projectOf(request), ...request.params })),
    );
  };
}
