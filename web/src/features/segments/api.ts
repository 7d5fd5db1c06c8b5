// The segments pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listSegments = (api: Api, query: Query<'/segments'>) => api.get('/segments', { query });

export const getSegment = (api: Api, id: string) => api.get('/segments/{id}', { path: { id } });

export const createSegment = (api: Api, body: Body<'/segments', 'post'>) => api.post('/segments', { body });

export const updateSegment = (api: Api, id: string, body: Body<'/segments/{id}', 'patch'>) =>
  api.patch('/segments/{id}', { path: { id }, body });

export const deleteSegment = (api: Api, id: string) => api.delete('/segments/{id}', { path: { id } });

/** The contacts that match the segment's filter now. */
export const listSegmentMembers = (api: Api, id: string, query: Query<'/segments/{id}/contacts'>) =>
  api.get('/segments/{id}/contacts', { path: { id }, query });

/** Adds contacts to a list (STATIC segment) by email or id. */
export const addListMembers = (api: Api, id: string, body: Body<'/segments/{id}/members', 'post'>) =>
  api.post('/segments/{id}/members', { path: { id }, body });

/** Removes contacts from a list by email or id. */
export const removeListMembers = (api: Api, id: string, body: Body<'/segments/{id}/members', 'delete'>) =>
  api.delete('/segments/{id}/members', { path: { id }, body });

/** How many contacts a filter (as JSON) matches now, without saving it. */
export const countFilter = (api: Api, filter: string) => api.get('/segments/count', { query: { filter } });
