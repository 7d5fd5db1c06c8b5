// The settings module's reference checks: the confirmation template of double opt-in stays while it is chosen,
// and keeps what a confirmation email needs (a sender, the {{confirmUrl}} link).
import type { ReferenceCheck, TemplateChangeCheck } from '../../context.types.ts';
import { confirmationTemplateProblem } from './settings.checks.ts';
import { findSettings } from './settings.repo.ts';

/** A template that is the project's double opt-in confirmation email. */
export const templateIsConfirmation: ReferenceCheck = async ({ db, projectId, id }) => {
  const row = await findSettings(db, projectId);
  if (row?.doubleOptInTemplateId !== id) return null;
  return {
    message: 'The template is the confirmation email of double opt-in',
    suggestion:
      'Choose another confirmation template (PATCH /settings {"doubleOptIn": ' +
      '{"templateId": "…"}}) or turn double opt-in off ({"doubleOptIn": null}) first.',
  };
};

/** A change that would leave the confirmation template without its sender or its {{confirmUrl}} link. */
export const confirmationTemplateChange: TemplateChangeCheck = async ({ db, projectId, id, body, fromEmail }) => {
  const problem = confirmationTemplateProblem({ body, fromEmail });
  if (!problem) return null;
  const row = await findSettings(db, projectId);
  if (row?.doubleOptInTemplateId !== id) return null;
  return {
    message:
      'The template is the confirmation email of double opt-in: ' +
      problem.message.replace(/^The confirmation template must/, 'it must'),
    suggestion:
      'Keep the sender and the {{confirmUrl}} link, or choose another confirmation ' +
      'template (PATCH /settings {"doubleOptIn": {"templateId": "…"}}) or turn double ' +
      'opt-in off ({"doubleOptIn": null}) first.',
  };
};
