// The layouts page's calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body } from '../../shared/api/operations.ts';
import type { components } from '../../shared/api/schema.ts';

export type Layout = components['schemas']['Layout'];
export type LayoutInput = Body<'/layouts', 'post'>;

/**
 * The cache key of layouts: under the templates', since changing a layout compiles the templates using it again, so
 * what invalidates one must invalidate the other.
 */
export const LAYOUTS = ['templates', 'layouts'] as const;

export const listLayouts = (api: Api) => api.get('/layouts', { query: { limit: 100 } });

export const getLayout = (api: Api, id: string) => api.get('/layouts/{id}', { path: { id } });

export const createLayout = (api: Api, body: LayoutInput) => api.post('/layouts', { body });

export const updateLayout = (api: Api, id: string, body: Body<'/layouts/{id}', 'patch'>) =>
  api.patch('/layouts/{id}', { path: { id }, body });

/** 409 while a template or an unsent campaign uses it (the message names it). */
export const deleteLayout = (api: Api, id: string) => api.delete('/layouts/{id}', { path: { id } });

/** Makes a layout the project's default (null: none), through the project's settings. */
export const setDefaultLayout = (api: Api, layoutId: string | null) =>
  api.patch('/settings', { body: { defaultLayoutId: layoutId } });
