// The pre-send check of a template: its published content (and each translation's), its links and sender domain.
import type { AppContext } from '../../context.types.ts';
import { checkMessage, type CheckResult } from '../checks/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { requireTemplate } from './templates.service.ts';

/** `POST /templates/{id}/check`: a MARKETING template is checked as marketing mail (an unsubscribe link). */
export async function checkTemplate(ctx: AppContext, projectId: string, id: string): Promise<CheckResult> {
  const row = await requireTemplate({ db: ctx.db, projectId, id });
  const translations = Object.entries(row.translations ?? {}).flatMap(([locale, translation]) =>
    translation.html ? [{ label: `Translation ${locale}`, html: translation.html }] : [],
  );
  const settings = await getProjectSettings({ db: ctx.db, projectId });
  return checkMessage(ctx, {
    projectId,
    bodies: [{ label: null, html: row.html }, ...translations],
    marketing: row.type === 'MARKETING',
    from: row.fromEmail,
    raise: settings.checkErrors,
  });
}
