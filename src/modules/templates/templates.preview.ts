import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { findOr404 } from '../../lib/errors.ts';
import type { RenderBudget } from '../../mail/render-batch.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import { templateVariables } from '../../mail/variables.ts';
import { dataSchema, emailSchema, findContact } from '../contacts/index.ts';
import { templateProblem } from './templates.service.ts';
import type { ProcessResources } from '../../lib/process-resources.ts';

export const previewTemplateBody = z.object({
  subject: z.string().max(998),
  body: z.string().max(1_000_000),
  data: dataSchema
    .optional()
    .meta({ description: "Sample variables, as a contact's data and a send's data would give them" }),
  email: emailSchema
    .optional()
    .meta({ description: 'The sample recipient ({{ email }}); preview@example.com unless given' }),
  contactId: z
    .string()
    .optional()
    .meta({ description: 'Render for this contact: its address and data (`data` over it), as a send to it would' }),
});

export const templatePreviewSchema = z
  .object({
    subject: z.string(),
    html: z.string(),
    text: z.string().meta({ description: 'The plain-text part, derived from the HTML as on a real send' }),
  })
  .meta({ id: 'TemplatePreview' });

/**
 * POST /templates/preview: a subject and body rendered exactly as a send renders them (escaping, fallbacks,
 * limits, budget; off the event loop) with sample data, without saving or sending anything. A template that does not
 * render is a 422 naming `subject` or `body` with line and column.
 */
export async function previewTemplate(opts: {
  db: Executor;
  projectId: string;
  publicUrl: string;
  budget: RenderBudget;
  resources: ProcessResources;
  input: z.infer<typeof previewTemplateBody>;
}): Promise<z.infer<typeof templatePreviewSchema>> {
  const { input } = opts;
  const found = input.contactId
    ? await findOr404('Contact', input.contactId, () =>
        findContact({ db: opts.db, projectId: opts.projectId, id: input.contactId! }),
      )
    : null;
  const email = found?.email ?? input.email ?? 'preview@example.com';
  const contact = found
    ? { id: found.id, email, subscribed: found.subscribed, data: found.data as Record<string, unknown> }
    : { id: null, email, subscribed: true, data: input.data ?? {} };
  const variables = templateVariables({
    contact,
    data: found ? input.data : undefined,
    unsubscribeUrl: `${opts.publicUrl}/unsubscribe/preview`,
  });
  try {
    const [preview] = await renderMessages(opts, {
      subject: opts.input.subject,
      html: opts.input.body,
      variables: [variables],
      budget: opts.budget,
    });
    return preview!;
  } catch (error) {
    throw templateProblem(error, { subject: 'subject', html: 'body' }) ?? error;
  }
}
