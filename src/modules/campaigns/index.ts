// The front door of the campaigns module: other modules import only what is exported here.
export {
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from './campaigns.service.ts';
export { cancelCampaign, sendCampaign, unscheduleCampaign } from './campaigns.schedule.ts';
export { getCampaignLinks } from './campaigns.stats.ts';
export { createCampaignBody } from './campaigns.schemas.ts';
