import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { previewTemplate, previewTemplateBody, templatePreviewSchema } from './templates.preview.ts';
import { templateRouteDocs } from './templates.schemas.ts';

/** POST /templates/preview: render a subject and body with sample data, as a send would (the editor's live preview). */
export function templatePreviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/templates/preview',
      {
        config: { auth: 'secret', scope: 'full', role: 'editor' },
        schema: {
          tags: ['Templates'],
          summary: 'Preview a template',
          operationId: 'previewTemplate',
          description: templateRouteDocs.previewTemplate,
          body: previewTemplateBody,
          response: { 200: envelope(templatePreviewSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(
          await previewTemplate({
            db: ctx.db,
            projectId: projectOf(request),
            publicUrl: ctx.config.publicUrl,
            budget: ctx.config.renderBudget,
            resources: ctx.resources,
            input: request.body,
          }),
        ),
    );
  };
}
