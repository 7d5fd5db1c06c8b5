// The settings module's reference check: the confirmation template of double opt-in stays while it is chosen.
import type { ReferenceCheck } from '../../context.types.ts';
import { findSettings } from './settings.repo.ts';

/** A template that is the project's double opt-in confirmation email. */
export const templateIsConfirmation: ReferenceCheck = async ({ db, projectId, id }) => {
  const row = await findSettings(db, projectId);
  if (row?.doubleOptInTemplateId !== id) return null;
  return {
    message: 'The template is the confirmation email of double opt-in',
    suggestion: 'Choose another confirmation template (PATCH /settings {"doubleOptIn": {"templateId": "…"}}) or turn double opt-in off ({"doubleOptIn": null}) first.',
  };
};
