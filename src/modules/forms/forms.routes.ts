import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { supportedLanguage } from '../../lib/i18n/index.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { formHtml, widgetScript } from './forms.pages.ts';
import { createFormBody, embedSchema, formRouteDocs, formSchema, updateFormBody } from './forms.schemas.ts';
import * as service from './forms.service.ts';

/** /forms: signup forms, their counts and their embed snippet. */
export function formRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Forms'];
    const write = { auth: 'secret', scope: 'full', role: 'editor' } as const;
    const read = { auth: 'secret', scope: 'read', role: 'viewer' } as const;

    app.post(
      '/forms',
      {
        config: write,
        schema: {
          tags,
          summary: 'Create a form',
          operationId: 'createForm',
          description: formRouteDocs.createForm,
          body: createFormBody,
          response: { 201: envelope(formSchema), ...errors(409) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createForm({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/forms',
      {
        config: read,
        schema: {
          tags,
          summary: 'List forms',
          operationId: 'listForms',
          querystring: paginationQuery,
          response: { 200: listEnvelope(formSchema), ...errors() },
        },
      },
      async (request) => ok(await service.listForms({ ctx, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/forms/:id',
      {
        config: read,
        schema: {
          tags,
          summary: 'Get a form',
          operationId: 'getForm',
          description: formRouteDocs.getForm,
          params: idParams,
          response: { 200: envelope(formSchema), ...errors(404) },
        },
      },
      async (request) => ok(await service.getForm({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/forms/:id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Update a form',
          operationId: 'updateForm',
          params: idParams,
          body: updateFormBody,
          response: { 200: envelope(formSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateForm({ ctx, projectId: projectOf(request), id: request.params.id, input: request.body }),
        ),
    );

    app.delete(
      '/forms/:id',
      {
        config: write,
        schema: {
          tags,
          summary: 'Delete a form',
          operationId: 'deleteForm',
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) => ok(await service.deleteForm({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/forms/:id/embed',
      {
        config: read,
        schema: {
          tags,
          summary: "A form's embed snippet",
          operationId: 'getFormEmbed',
          description: formRouteDocs.getFormEmbed,
          params: idParams,
          response: { 200: envelope(embedSchema), ...errors(404) },
        },
      },
      async (request) => {
        const form = await service.requireForm(ctx.db, projectOf(request), request.params.id);
        const base = ctx.config.publicUrl;
        const lang = supportedLanguage(form.locale) ?? 'en';
        return ok({
          html: formHtml({ form, lang, base, embed: true }),
          script: form.captcha === 'pow' ? widgetScript(base) : null,
        });
      },
    );
  };
}
