// The webhooks pages' calls to the API.
import type { Api } from '../../shared/api/client.ts';
import type { Body, Query } from '../../shared/api/operations.ts';

export const listWebhooks = (api: Api, query: Query<'/webhooks'>) => api.get('/webhooks', { query });

export const getWebhook = (api: Api, id: string) => api.get('/webhooks/{id}', { path: { id } });

/** A new endpoint; the answer carries its signing secret, shown once. */
export const createWebhook = (api: Api, body: Body<'/webhooks', 'post'>) => api.post('/webhooks', { body });

export const updateWebhook = (api: Api, id: string, body: Body<'/webhooks/{id}', 'patch'>) =>
  api.patch('/webhooks/{id}', { path: { id }, body });

export const deleteWebhook = (api: Api, id: string) => api.delete('/webhooks/{id}', { path: { id } });

export const rotateWebhookSecret = (api: Api, id: string) => api.post('/webhooks/{id}/rotate-secret', { path: { id } });

/** Sends a `webhook.test` event to the endpoint (a delivery like any other). */
export const testWebhook = (api: Api, id: string) => api.post('/webhooks/{id}/test', { path: { id } });

export const listDeliveries = (api: Api, id: string, query: Query<'/webhooks/{id}/deliveries'>) =>
  api.get('/webhooks/{id}/deliveries', { path: { id }, query });

export const retryDelivery = (api: Api, id: string, deliveryId: string) =>
  api.post('/webhooks/{id}/deliveries/{deliveryId}/retry', { path: { id, deliveryId } });
