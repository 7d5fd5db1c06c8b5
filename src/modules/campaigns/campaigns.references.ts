// The campaigns module's reference check: a segment stays while an unsent campaign's audience names it.
import type { ReferenceCheck } from '../../context.types.ts';
import { campaignsNamingSegment } from './campaigns.repo.ts';

/** A segment that is the audience (or part of the audience filter) of a draft, scheduled or sending campaign. */
export const segmentInCampaignAudience: ReferenceCheck = async ({ db, projectId, id }) => {
  const campaigns = await campaignsNamingSegment(db, projectId, id);
  return campaigns.length === 0 ? null : { message: `The segment is the audience of a draft, scheduled or sending campaign (${campaigns.join(', ')})` };
};
