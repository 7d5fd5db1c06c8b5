// The pre-send check of a campaign: its content as it would go out (in its layout, each variant and translation),
// its sender domain, and the data its audience's contacts lack (where no contact property fallback stands in).
import type { AppContext } from '../../context.types.ts';
import { checkFailed, checkMessage, dataKeysRead, type CheckResult } from '../checks/index.ts';
import { findDataFallbacks } from '../contacts/index.ts';
import { countMissingData } from '../segments/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';
import { sentContent } from './campaigns.jobs.ts';
import { recipientsOf } from './campaigns.service.ts';
import { isAbTest, VARIANT_IDS, variantRow } from './campaigns.variants.ts';

/** Data keys whose absence is counted per check, at most (one filtered count each, in one statement). */
const MAX_KEYS = 20;

/**
 * The campaign's check: `POST /campaigns/{id}/check`, and before every send (`errorsOnly`: without what only
 * warns, such as counting the audience's missing data, unless the project raised it to an error).
 */
export async function checkCampaign(
  ctx: AppContext,
  campaign: CampaignRow,
  opts: { errorsOnly?: boolean } = {},
): Promise<CheckResult> {
  const settings = await getProjectSettings({ db: ctx.db, projectId: campaign.projectId });
  const errorsOnly = opts.errorsOnly ?? false;
  const rows = isAbTest(campaign)
    ? campaign.variants!.map((_, i) => ({ label: `Variant ${VARIANT_IDS[i]}`, row: variantRow(campaign, i) }))
    : [{ label: null, row: campaign }];
  const bodies: { label: string | null; html: string }[] = [];
  const subjects: string[] = [];
  for (const { label, row } of rows) {
    const sent = await sentContent(ctx, ctx.db, row, row.body);
    bodies.push({ label, html: sent.html });
    subjects.push(row.subject);
    for (const [locale, translation] of Object.entries(sent.translations ?? {})) {
      if (translation.html) bodies.push({ label: `Translation ${locale}`, html: translation.html });
      if (translation.subject) subjects.push(translation.subject);
    }
  }
  const countMissing = !errorsOnly || settings.checkErrors.includes('missing_variables');
  // A key with a declared contact property fallback is never missing: a contact without it gets the fallback.
  const fallbacks = countMissing ? await findDataFallbacks({ db: ctx.db, projectId: campaign.projectId }) : {};
  const keys = countMissing
    ? dataKeysRead([...subjects, ...bodies.map((body) => body.html)])
        .filter((key) => fallbacks[key] === undefined)
        .slice(0, MAX_KEYS)
    : [];
  const predicate = keys.length > 0 ? await recipientsOf(ctx.db, campaign) : null;
  const counts = predicate
    ? await countMissingData({ db: ctx.db, projectId: campaign.projectId, predicate, keys })
    : null;
  return checkMessage(ctx, {
    projectId: campaign.projectId,
    bodies,
    marketing: true,
    from: campaign.fromEmail,
    missingData: counts && {
      recipients: counts.total,
      missing: keys.map((key, i) => ({ key, count: counts.missing[i]! })),
    },
    raise: settings.checkErrors,
    errorsOnly,
  });
}

/** Refuses (409 CHECK_FAILED) a send whose check finds an error, unless the send is forced. */
export async function requirePassingCheck(ctx: AppContext, campaign: CampaignRow, force: boolean): Promise<void> {
  if (force) return;
  const result = await checkCampaign(ctx, campaign, { errorsOnly: true });
  if (result.issues.some((issue) => issue.severity === 'error'))
    throw checkFailed(result, `/campaigns/${campaign.id}/check`);
}
