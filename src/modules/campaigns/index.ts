// The front door of the campaigns module: other modules import only what is exported here.
export { createCampaignBody } from './campaigns.schemas.ts';
