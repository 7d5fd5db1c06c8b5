// What a campaign's state allows, as the server says it (`allowedActions`): the pages offer those actions to the
// roles that may take them, and read a live campaign again while its mail goes out.
import type { Campaign } from '../../shared/api/types.ts';

export type CampaignAction = Campaign['allowedActions'][number];

/** Whether the campaign's state allows `action` now (whether the role may is asked apart). */
export const allows = (campaign: Campaign, action: CampaignAction): boolean => campaign.allowedActions.includes(action);

/** A send at each recipient's local time that has begun: still SCHEDULED, its emails wait for their time zones. */
export const waitingForTimeZones = (campaign: Campaign): boolean =>
  campaign.status === 'SCHEDULED' && !allows(campaign, 'update');

/**
 * How often a campaign's page reads it and its results again: every 1.5 s while its mail goes out, every 10 s while a
 * local-time send waits for its time zones, otherwise not at all.
 */
export function refreshEvery(campaign: Campaign | undefined): number | false {
  if (!campaign) return false;
  if (campaign.status === 'SENDING' || campaign.status === 'TESTING') return 1500;
  return waitingForTimeZones(campaign) ? 10_000 : false;
}
