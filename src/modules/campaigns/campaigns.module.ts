// The campaigns module: campaigns, their fan-out and stats.
import type { ModuleManifest } from '../../context.types.ts';
import { campaignFanoutJob, campaignFinishJob, campaignSweepJob, campaignWinnerJob } from './campaigns.jobs.ts';
import { layoutOfUnsentCampaign, segmentInCampaignAudience, topicOfUnsentCampaign } from './campaigns.references.ts';
import { campaignRoutes } from './campaigns.routes.ts';

export const campaignsModule: ModuleManifest = {
  name: 'campaigns',
  routes: [campaignRoutes],
  jobs: [campaignFanoutJob, campaignFinishJob, campaignWinnerJob, campaignSweepJob],
  references: { segment: segmentInCampaignAudience, topic: topicOfUnsentCampaign, layout: layoutOfUnsentCampaign },
};
