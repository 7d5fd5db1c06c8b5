import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { findOr404 } from '../../lib/errors.ts';
import type { RenderBudget } from '../../mail/render-batch.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import { templateVariables } from '../../mail/variables.ts';
import { dataSchema, emailSchema, findContact } from '../contacts/index.ts';
import { localeSchema } from '../../lib/locale.ts';
import { compileSource, layoutChoiceOf, translated } from './templates.content.ts';
import { contentFields } from './templates.schemas.ts';
import { syntaxProblems, templateProblem } from './templates.syntax.ts';
import type { ProcessResources } from '../../lib/process-resources.ts';

export const previewTemplateBody = z.object({
  subject: z.string().max(998).optional(),
  ...contentFields,
  body: z.string().max(1_000_000).optional(),
  locale: localeSchema
    .optional()
    .meta({ description: "Render this translation (pt-BR reads pt-BR, then pt); else the contact's locale" }),
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
    locale: z.string().nullable().meta({ description: 'The translation rendered; null: the default' }),
    warnings: z.array(z.string()).meta({ description: 'What compiling the content noticed' }),
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
  const format = input.format ?? 'html';
  const compiled = await compileSource({
    db: opts.db,
    projectId: opts.projectId,
    source: {
      subject: input.subject ?? '',
      format,
      body: format === 'html' ? (input.body ?? '') : undefined,
      content: input.content,
      ...layoutChoiceOf(input.layoutId, null),
      translations: input.translations ?? null,
    },
  });
  const found = input.contactId
    ? await findOr404('Contact', input.contactId, () =>
        findContact({ db: opts.db, projectId: opts.projectId, id: input.contactId! }),
      )
    : null;
  const message = translated(
    { subject: input.subject ?? '', html: compiled.html, translations: compiled.translations },
    input.locale ?? found?.locale,
  );
  const rendered = await renderPreview({ ...opts, found, subject: message.subject, html: message.html });
  return { ...rendered, locale: message.locale, warnings: compiled.warnings };
}

/** One message rendered as a send renders it, for the contact found or the sample recipient. */
async function renderPreview(opts: {
  db: Executor;
  projectId: string;
  publicUrl: string;
  budget: RenderBudget;
  resources: ProcessResources;
  input: z.infer<typeof previewTemplateBody>;
  found: Awaited<ReturnType<typeof findContact>>;
  subject: string;
  html: string;
}): Promise<{ subject: string; html: string; text: string }> {
  const { input, found } = opts;
  const email = found?.email ?? input.email ?? 'preview@example.com';
  const contact = found
    ? { id: found.id, email, subscribed: found.subscribed, data: found.data as Record<string, unknown> }
    : { id: null, email, subscribed: true, data: input.data ?? {} };
  const variables = templateVariables({
    contact,
    data: found ? input.data : undefined,
    unsubscribeUrl: `${opts.publicUrl}/unsubscribe/preview`,
    viewInBrowserUrl: `${opts.publicUrl}/v/preview`,
  });
  try {
    const [preview] = await renderMessages(opts, {
      subject: opts.subject,
      html: opts.html,
      variables: [variables],
      budget: opts.budget,
    });
    return preview!;
  } catch (error) {
    const html = (opts.input.format ?? 'html') === 'html' ? 'body' : 'content';
    // Rendering stops at the first problem: the subject and the body are checked apart so that each is named.
    throw (
      syntaxProblems(opts.subject, opts.html, { subject: 'subject', html }) ??
      templateProblem(error, { subject: 'subject', html }) ??
      error
    );
  }
}
