// The filter builder's calls to the API: what a condition can refer to.
import type { Api } from '../api/client.ts';

/** Segments a condition can name (the first 100). */
export const listSegmentChoices = (api: Api) => api.get('/segments', { query: { limit: 100 } });

/** Event names the project has seen (the first 100), offered as a condition's event. */
export const listEventNames = (api: Api) => api.get('/events/names', { query: { limit: 100 } });

/** Campaigns an email-activity condition can name (the newest 100). */
export const listCampaignChoices = (api: Api) => api.get('/campaigns', { query: { limit: 100 } });

/** Topics a topic condition (and a campaign) can name (the first 100). */
export const listTopicChoices = (api: Api) => api.get('/topics', { query: { limit: 100 } });
