// Conditions on a project's emails that other modules' queries embed (a segment's filter, a campaign's completion):
// built by the emails module, so that the emails table is named nowhere else.
import type { SQL } from 'drizzle-orm';
import { emailActivityExistsSql, unsentCampaignEmailExistsSql, type EmailActivityCondition } from './emails.repo.ts';

export type { EmailActivityCondition } from './emails.repo.ts';

/**
 * `EXISTS (…)`: the contact (the outer query's `contacts.id`) has an email of the project with the activity, as
 * ACTIVITY_SQL defines it (people's opens and clicks only when `human`), of the campaign and since the time when given.
 */
export function contactEmailActivitySql(condition: EmailActivityCondition): SQL {
  return emailActivityExistsSql(condition);
}

/** `EXISTS (…)`: an email of the campaign is still on its way (SCHEDULED, QUEUED, SENDING or DEFERRED). */
export function unsentCampaignEmailsSql(campaignId: string): SQL {
  return unsentCampaignEmailExistsSql(campaignId);
}
