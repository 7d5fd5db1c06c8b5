// The workflows pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';
import { editable } from './steps.ts';

export const listWorkflows = (api: Api, query: Query<'/workflows'>) => api.get('/workflows', { query });

export const getWorkflow = async (api: Api, id: string) => editable(await api.get('/workflows/{id}', { path: { id } }));

export const createWorkflow = async (api: Api, body: Body<'/workflows', 'post'>) =>
  editable(await api.post('/workflows', { body }));

/** New steps make a new version; running executions finish on theirs. */
export const updateWorkflow = async (api: Api, id: string, body: Body<'/workflows/{id}', 'patch'>) =>
  editable(await api.patch('/workflows/{id}', { path: { id }, body }));

export const deleteWorkflow = (api: Api, id: string) => api.delete('/workflows/{id}', { path: { id } });

export const listExecutions = (api: Api, id: string, query: Query<'/workflows/{id}/executions'>) =>
  api.get('/workflows/{id}/executions', { path: { id }, query });

/** Starts the workflow for one contact (a MANUAL trigger). */
export const startExecution = (api: Api, id: string, contactId: string) =>
  api.post('/workflows/{id}/executions', { path: { id }, body: { contactId } });

export const cancelExecution = (api: Api, id: string, executionId: string) =>
  api.post('/workflows/{id}/executions/{executionId}/cancel', { path: { id, executionId } });

/** The contact with this exact email, or null. */
export async function findContactByEmail(api: Api, email: string) {
  const found = await api.get('/contacts', { query: { email, limit: 1 } });
  return found.items[0] ?? null;
}

/** Templates a SEND_EMAIL step can send (the first 100). */
export const listTemplateChoices = (api: Api) => api.get('/templates', { query: { limit: 100 } });
