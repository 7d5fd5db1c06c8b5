import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import { previewTemplate, previewTemplateBody, templatePreviewSchema } from './templates.preview.ts';

/** POST /templates/preview: render a subject and body with sample data, as a send would (the editor's live preview). */
export function templatePreviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/templates/preview', {
      config: { auth: 'secret' },
      schema: {
        tags: ['Templates'],
        summary: 'Preview a template',
        operationId: 'previewTemplate',
        description: 'Renders a subject and an HTML body (Liquid) with sample data exactly as a send would, and returns subject, HTML and text. Nothing is saved or sent.',
        body: previewTemplateBody,
        response: { 200: envelope(templatePreviewSchema), ...errors() },
      },
    }, async (request) => ok(await previewTemplate({ publicUrl: ctx.config.publicUrl, budget: ctx.config.renderBudget, input: request.body })));
  };
}
