import type { Db } from '../../db/client.ts';
import { isId } from '../../lib/ids.ts';
import { validationError } from '../../lib/errors.ts';
import { findTemplate } from '../templates/index.ts';

/**
 * A 422 unless `templateId` is a template of the project that links to `{{confirmUrl}}`: a confirmation email
 * without the link would leave every signup pending for good.
 */
export async function checkConfirmationTemplate(opts: { db: Db; projectId: string; templateId: string }): Promise<void> {
  const field = 'doubleOptIn.templateId';
  const template = isId(opts.templateId) ? await findTemplate({ db: opts.db, projectId: opts.projectId, id: opts.templateId }) : null;
  if (!template) throw validationError(field, `No template ${opts.templateId} in this project`, 'not_found');
  if (!/\{\{-?\s*confirmUrl\b/.test(template.body)) {
    throw validationError(field, 'The confirmation template must link to {{confirmUrl}} in its body', 'missing_confirm_url');
  }
}
