import { z } from 'zod';
import type { RenderBudget } from '../../mail/render-batch.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import { dataSchema, emailSchema } from '../contacts/index.ts';
import { templateProblem } from './templates.service.ts';

export const previewTemplateBody = z.object({
  subject: z.string().max(998),
  body: z.string().max(1_000_000),
  data: dataSchema.optional().meta({ description: 'Sample variables, as a contact\'s data and a send\'s data would give them' }),
  email: emailSchema.optional().meta({ description: 'The sample recipient ({{ email }}); preview@example.com unless given' }),
});

export const templatePreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string().meta({ description: 'The plain-text part, derived from the HTML as on a real send' }),
}).meta({ id: 'TemplatePreview' });

/**
 * POST /templates/preview: a subject and body rendered exactly as a send renders them (escaping, fallbacks,
 * limits, budget; off the event loop) with sample data, without saving or sending anything. A template that does not render is a 422
 * naming `subject` or `body` with line and column.
 */
export async function previewTemplate(opts: { publicUrl: string; budget: RenderBudget; input: z.infer<typeof previewTemplateBody> }): Promise<z.infer<typeof templatePreviewSchema>> {
  const data = opts.input.data ?? {};
  const email = opts.input.email ?? 'preview@example.com';
  const variables = {
    ...data, email, unsubscribeUrl: `${opts.publicUrl}/unsubscribe/preview`,
    contact: { id: null, email, subscribed: true, data },
  };
  try {
    const [preview] = await renderMessages({ subject: opts.input.subject, html: opts.input.body, variables: [variables], budget: opts.budget });
    return preview!;
  } catch (error) {
    throw templateProblem(error, { subject: 'subject', html: 'body' }) ?? error;
  }
}
