// The campaigns module's reference checks: a segment stays while an unsent campaign's audience names it, and a
// topic while an unsent campaign sends to it or its audience filter has a condition on it (deleting it would
// widen the campaign: to its whole audience, or to everyone a `notSubscribed` condition then matches).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ReferenceCheck } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { campaigns, type CampaignStatus } from '../../db/schema/campaigns.ts';
import { filterNames } from '../segments/index.ts';
import { campaignsNamingSegment, campaignsNamingTopic } from './campaigns.repo.ts';

/** Campaign statuses whose audience is still to be resolved (as campaignsNamingTopic counts them). */
const UNSENT: CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING', 'TESTING', 'PAUSED'];

/** Unsent FILTERED campaigns of the project whose audience filter has a condition on this topic (up to 5 ids). */
async function campaignsFilteringOnTopic(db: Executor, projectId: string, topicId: string): Promise<string[]> {
  const rows = await db.select({ id: campaigns.id }).from(campaigns)
    .where(and(eq(campaigns.projectId, projectId), inArray(campaigns.status, UNSENT), eq(campaigns.audienceType, 'FILTERED'),
      filterNames(sql`${campaigns.audienceFilter}`, { topic: topicId })))
    .limit(5);
  return rows.map((r) => r.id);
}

/** A segment that is the audience (or part of the audience filter) of a draft, scheduled or sending campaign. */
export const segmentInCampaignAudience: ReferenceCheck = async ({ db, projectId, id }) => {
  const campaigns = await campaignsNamingSegment(db, projectId, id);
  return campaigns.length === 0 ? null : { message: `The segment is the audience of a draft, scheduled or sending campaign (${campaigns.join(', ')})` };
};

/** A topic that a draft, scheduled or sending campaign is limited to (`topicId`) or names in its audience filter. */
export const topicOfUnsentCampaign: ReferenceCheck = async ({ db, projectId, id }) => {
  const limited = await campaignsNamingTopic(db, projectId, id);
  if (limited.length > 0) {
    return {
      message: `The topic limits the audience of a draft, scheduled or sending campaign (${limited.join(', ')}): without it the campaign would reach its whole audience`,
      suggestion: 'Set the campaign\'s topicId to another topic or null (PATCH /campaigns/{id}), or cancel it, first.',
    };
  }
  const filtering = await campaignsFilteringOnTopic(db, projectId, id);
  if (filtering.length === 0) return null;
  return {
    message: `The topic is named in the audience filter of a draft, scheduled or sending campaign (${filtering.join(', ')})`,
    suggestion: 'Take the topic condition out of the campaign\'s audienceFilter (PATCH /campaigns/{id}), or cancel it, first.',
  };
};
