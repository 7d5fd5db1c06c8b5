// The campaigns module's reference checks: a segment stays while an unsent campaign's audience names it, and a
// topic while an unsent campaign sends to it or its audience filter has a condition on it (deleting it would
// widen the campaign: to its whole audience, or to everyone a `notSubscribed` condition then matches).
import type { ReferenceCheck } from '../../context.types.ts';
import {
  campaignsFilteringOnTopic,
  campaignsNamingLayout,
  campaignsNamingSegment,
  campaignsNamingTopic,
} from './campaigns.repo.ts';

/** A segment that is the audience (or part of the audience filter) of a draft, scheduled or sending campaign. */
export const segmentInCampaignAudience: ReferenceCheck = async ({ db, projectId, id }) => {
  const campaigns = await campaignsNamingSegment(db, projectId, id);
  return campaigns.length === 0
    ? null
    : { message: `The segment is the audience of a draft, scheduled or sending campaign (${campaigns.join(', ')})` };
};

/** A topic that a draft, scheduled or sending campaign is limited to (`topicId`) or names in its audience filter. */
export const topicOfUnsentCampaign: ReferenceCheck = async ({ db, projectId, id }) => {
  const limited = await campaignsNamingTopic(db, projectId, id);
  if (limited.length > 0) {
    return {
      message:
        `The topic limits the audience of a draft, scheduled or sending ` +
        `campaign (${limited.join(', ')}): without it the campaign would ` +
        `reach its whole audience`,
      suggestion: "Set the campaign's topicId to another topic or null (PATCH /campaigns/{id}), or cancel it, first.",
    };
  }
  const filtering = await campaignsFilteringOnTopic(db, projectId, id);
  if (filtering.length === 0) return null;
  return {
    message:
      `The topic is named in the audience filter of a draft, scheduled ` +
      `or sending campaign (${filtering.join(', ')})`,
    suggestion:
      "Take the topic condition out of the campaign's audienceFilter (PATCH /campaigns/{id}), or cancel it, first.",
  };
};

/** A layout named by a campaign not sent yet: deleting it would change what the campaign sends. */
export const layoutOfUnsentCampaign: ReferenceCheck = async ({ db, projectId, id }) => {
  const names = await campaignsNamingLayout(db, projectId, id);
  if (names.length === 0) return null;
  return {
    message: `The layout is used by a campaign not sent yet (${names.join(', ')})`,
    suggestion: "Change the campaign's layoutId (PATCH /campaigns/{id}), or cancel it, first.",
  };
};
