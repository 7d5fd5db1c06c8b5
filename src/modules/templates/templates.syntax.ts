// Liquid checks of a subject and an HTML body, as 422s naming the request fields.
import { AppError } from '../../lib/errors.ts';
import { RenderBudgetError } from '../../mail/render-batch.ts';
import { TemplateError, validateTemplate } from '../../mail/render.ts';

/**
 * A template that does not parse (or render) as a 422 naming the request field, with line and column; one
 * whose messages overrun the request's render budget as a 422 `render_budget` on the body's field.
 */
export function templateProblem(
  error: unknown,
  fields: { subject: string; html: string; text?: string },
): AppError | null {
  if (error instanceof RenderBudgetError) {
    const message = `${error.message}: simplify the template, or send to fewer recipients per request`;
    return new AppError('VALIDATION_ERROR', `${fields.html}: ${message}`, {
      errors: [{ field: fields.html, message, code: 'render_budget' }],
    });
  }
  if (!(error instanceof TemplateError)) return null;
  const field =
    error.field === 'subject' ? fields.subject : error.field === 'html' ? fields.html : (fields.text ?? 'text');
  const code =
    error.kind === 'syntax' ? 'template_syntax' : error.kind === 'limit' ? 'template_limit' : 'template_render';
  return new AppError('VALIDATION_ERROR', `${field}: ${error.message.replace(/^\w+: /, '')}`, {
    errors: [{ field, message: error.message.replace(/^\w+: /, ''), code }],
  });
}

/**
 * The problems of a subject and an HTML body that do not parse as Liquid, as one 422 naming each field with its line
 * and column (Liquid stops at a field's first error, so each field gives one); null when both parse.
 */
export function syntaxProblems(
  subject: string | undefined,
  body: string | undefined,
  fields: { subject: string; html: string; text?: string } = { subject: 'subject', html: 'body' },
): AppError | null {
  const problems: AppError[] = [];
  for (const [source, field] of [
    [subject, 'subject'],
    [body, 'html'],
  ] as const) {
    if (source === undefined) continue;
    try {
      validateTemplate(source, { field });
    } catch (error) {
      problems.push(templateProblem(error, fields) ?? rethrow(error));
    }
  }
  if (problems.length <= 1) return problems[0] ?? null;
  return new AppError('VALIDATION_ERROR', problems.map((p) => p.message).join('; '), {
    errors: problems.flatMap((p) => p.errors ?? []),
  });
}

function rethrow(error: unknown): never {
  throw error;
}

/**
 * Checks that a subject and an HTML body parse as Liquid; a 422 names each request field with a problem (`subject`,
 * `body` unless told).
 */
export function checkTemplateSyntax(
  subject: string | undefined,
  body: string | undefined,
  fields = { subject: 'subject', html: 'body' },
): void {
  const problem = syntaxProblems(subject, body, fields);
  if (problem) throw problem;
}
