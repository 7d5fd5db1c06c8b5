// The campaigns pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listCampaigns = (api: Api, query: Query<'/campaigns'>) => api.get('/campaigns', { query });

export const getCampaign = (api: Api, id: string) => api.get('/campaigns/{id}', { path: { id } });

export const createCampaign = (api: Api, body: Body<'/campaigns', 'post'>) => api.post('/campaigns', { body });

export const updateCampaign = (api: Api, id: string, body: Body<'/campaigns/{id}', 'patch'>) =>
  api.patch('/campaigns/{id}', { path: { id }, body });

export const deleteCampaign = (api: Api, id: string) => api.delete('/campaigns/{id}', { path: { id } });

/** Sends now, or at `scheduledFor`. */
export const sendCampaign = (api: Api, id: string, body: Body<'/campaigns/{id}/send', 'post'>) =>
  api.post('/campaigns/{id}/send', { path: { id }, body });

/** The pre-send check: a score and each issue with its fix. */
export const checkCampaign = (api: Api, id: string) => api.post('/campaigns/{id}/check', { path: { id } });

export const cancelCampaign = (api: Api, id: string) => api.post('/campaigns/{id}/cancel', { path: { id } });

/** SCHEDULED → DRAFT. */
export const unscheduleCampaign = (api: Api, id: string) => api.post('/campaigns/{id}/unschedule', { path: { id } });

/** A new DRAFT "<name> (copy)". */
export const duplicateCampaign = (api: Api, id: string) => api.post('/campaigns/{id}/duplicate', { path: { id } });

/**
 * The campaign's subject and body rendered by the server with placeholder data (the read-only view of a sent campaign).
 */
export const previewCampaignBody = (api: Api, subject: string, body: string) =>
  api.post('/templates/preview', { body: { subject, body } });

/** The name of the segment a campaign goes to. */
export const getSegmentName = async (api: Api, id: string) => (await api.get('/segments/{id}', { path: { id } })).name;

export const testCampaign = (api: Api, id: string, emails: string[]) =>
  api.post('/campaigns/{id}/test', { path: { id }, body: { emails } });

export const getCampaignStats = (api: Api, id: string) => api.get('/campaigns/{id}/stats', { path: { id } });

/** SENDING or TESTING → PAUSED. */
export const pauseCampaign = (api: Api, id: string) => api.post('/campaigns/{id}/pause', { path: { id } });

/** PAUSED → SENDING (or TESTING). */
export const resumeCampaign = (api: Api, id: string) => api.post('/campaigns/{id}/resume', { path: { id } });

/** Ends an A/B test now: this variant goes to the rest. */
export const pickCampaignWinner = (api: Api, id: string, variantId: string) =>
  api.post('/campaigns/{id}/winner', { path: { id }, body: { variantId } });

/** A DRAFT to the recipients who did not open (or click). */
export const createFollowUp = (api: Api, id: string, audience: 'nonOpeners' | 'nonClickers') =>
  api.post('/campaigns/{id}/follow-up', { path: { id }, body: { audience } });

export const getCampaignLinks = (api: Api, id: string) => api.get('/campaigns/{id}/links', { path: { id } });
