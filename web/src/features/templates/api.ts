// The templates pages' calls to the API, and the shapes of what they read (the generated schema's, by name).
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';
import type { components } from '../../shared/api/schema.ts';

type Schemas = components['schemas'];

export type Template = Schemas['Template'];
export type TemplateType = Template['type'];
export type TemplateDraft = Schemas['TemplateDraft'];
export type VersionSummary = Schemas['TemplateVersionSummary'];
export type TemplateVersion = Schemas['TemplateVersion'];
export type Actor = Schemas['Actor'];
export type Preview = Schemas['TemplatePreview'];

/** What one version of a template holds. */
export type VersionContent = Pick<
  Template,
  'subject' | 'format' | 'body' | 'content' | 'from' | 'fromName' | 'replyTo' | 'layoutId' | 'translations'
>;

export type TemplateInput = Body<'/templates/{id}', 'patch'>;
export type PreviewInput = Body<'/templates/preview', 'post'>;

/** The content fields templates, campaigns and previews take. */
export type ContentInput = Pick<PreviewInput, 'subject' | 'format' | 'body' | 'content' | 'layoutId' | 'translations'>;

export const listTemplates = (api: Api, query: Query<'/templates'>) => api.get('/templates', { query });

export const getTemplate = (api: Api, id: string) => api.get('/templates/{id}', { path: { id } });

export const createTemplate = (api: Api, body: Body<'/templates', 'post'>) => api.post('/templates', { body });

/** Name, type and sample data change in place; content fields make a version (the draft with `publish: false`). */
export const updateTemplate = (api: Api, id: string, body: TemplateInput) =>
  api.patch('/templates/{id}', { path: { id }, body });

export const deleteTemplate = (api: Api, id: string) => api.delete('/templates/{id}', { path: { id } });

/** Publishes the draft (409 when there is none). */
export const publishTemplate = (api: Api, id: string) => api.post('/templates/{id}/publish', { path: { id } });

/** Every version, newest first. */
export const listVersions = (api: Api, id: string) => api.get('/templates/{id}/versions', { path: { id } });

export const getVersion = (api: Api, id: string, version: number) =>
  api.get('/templates/{id}/versions/{version}', { path: { id, version } });

/** Makes a version's content the draft. */
export const restoreVersion = (api: Api, id: string, version: number) =>
  api.post('/templates/{id}/versions/{version}/restore', { path: { id, version } });

/** A subject and content rendered by the server with sample data (or a contact's), as a send would render them. */
export const previewTemplate = (api: Api, body: PreviewInput) => api.post('/templates/preview', { body });

/** A real transactional send (POST /v1/send): the test of a template as it is in the editor. */
export const sendTestEmail = (api: Api, body: Body<'/v1/send', 'post'>) => api.post('/v1/send', { body });

/** The project's contact with this address, or null. */
export const findContactByEmail = async (api: Api, email: string) =>
  (await api.get('/contacts', { query: { email, limit: 1 } })).items[0] ?? null;

/** The pre-send check of the published version: a score and each issue with its fix. */
export const checkTemplate = (api: Api, id: string) => api.post('/templates/{id}/check', { path: { id } });
