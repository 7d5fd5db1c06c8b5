import type { Executor } from '../../db/client.ts';
import { isId } from '../../lib/ids.ts';
import { validationError } from '../../lib/errors.ts';
import { findTemplatesByIds } from '../templates/index.ts';

/** What a confirmation email needs of its template: a sender, and the link that confirms. */
export function confirmationTemplateProblem(template: {
  body: string;
  fromEmail: string | null;
}): { code: string; message: string } | null {
  if (!template.fromEmail)
    return { code: 'missing_from', message: 'The confirmation template must have a sender (from)' };
  if (!/\{\{-?\s*confirmUrl\b/.test(template.body))
    return {
      code: 'missing_confirm_url',
      message: 'The confirmation template must link to {{confirmUrl}} in its body',
    };
  return null;
}

/**
 * A 422 unless `templateId` is a template of the project with a sender that links to `{{confirmUrl}}`: without
 * either every signup would fail or stay pending for good. Share-locks the template until the caller's
 * transaction ends, so a template change cannot slip in between.
 */
export async function checkConfirmationTemplate(opts: {
  db: Executor;
  projectId: string;
  templateId: string;
}): Promise<void> {
  const field = 'doubleOptIn.templateId';
  const template = isId(opts.templateId)
    ? (await findTemplatesByIds({ db: opts.db, projectId: opts.projectId, ids: [opts.templateId] })).get(
        opts.templateId,
      )
    : undefined;
  if (!template)
    throw validationError(field, `No template ${JSON.stringify(opts.templateId)} in this project`, 'not_found');
  const problem = confirmationTemplateProblem(template);
  if (problem) throw validationError(field, problem.message, problem.code);
}
