// /webhooks: endpoints with their secrets, deliveries, manual retry, rotation and the test event.
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { encryptPrivateKey as seal } from '../../mail/dkim-keys.ts';
import {
  checkAddress,
  generateWebhookSecret,
  OutboundRequestError,
  parseIpLiteral,
  parseTargetUrl,
} from '../../net/index.ts';
import { changesOf, recordAudit, REDACTED } from '../audit/index.ts';
import * as repo from './webhooks.repo.ts';
import type { WebhookFormat } from '../../db/schema/index.ts';
import {
  EVENT_TYPES_OF,
  type CreateWebhookInput,
  type DeliveryView,
  type UpdateWebhookInput,
  type WebhookView,
} from './webhooks.schemas.ts';

/** How long requests carry the old secret's signature too, after a rotation. */
export const ROTATION_OVERLAP_HOURS = 24;

export function toWebhookView(row: repo.EndpointRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    format: row.format,
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function toDeliveryView(row: repo.DeliveryRow): DeliveryView {
  return {
    id: row.id,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'PENDING' ? iso(row.nextAttemptAt) : null,
    createdAt: iso(row.createdAt),
  };
}

/**
 * The events of an endpoint of this format: each a name of the format (Resend's for a resend endpoint, else 422);
 * `*` alone when given with others; duplicates removed.
 */
function normalizeEvents(events: string[], format: WebhookFormat): string[] {
  const known = EVENT_TYPES_OF[format];
  events.forEach((event, i) => {
    if (event !== '*' && !known.includes(event))
      throw validationError(
        `events.${i}`,
        format === 'resend'
          ? `${event} is not one of Resend's event names, which a resend endpoint takes (${known.join(', ')})`
          : `${event} is one of Resend's event names, which only a resend endpoint takes`,
        'invalid_event',
      );
  });
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

// A URL whose host is a literal address is checked now; names are checked at every delivery, after DNS.
function checkUrl(ctx: AppContext, url: string, field: string): void {
  let target: URL;
  try {
    target = parseTargetUrl(url);
  } catch (error) {
    throw validationError(
      field,
      error instanceof OutboundRequestError ? error.message : 'not a valid URL',
      'url_not_allowed',
    );
  }
  if (ctx.config.webhookAllowPrivate) return;
  if (target.protocol !== 'https:')
    throw validationError(
      field,
      'must be an https URL (WEBHOOK_ALLOW_PRIVATE=true also allows http)',
      'url_not_allowed',
    );
  if (/(^|\.)localhost$/i.test(target.hostname))
    throw validationError(field, 'localhost is not an allowed target', 'url_not_allowed');
  const literal = parseIpLiteral(target.hostname);
  const verdict = literal ? checkAddress(literal.toString()) : null;
  if (verdict && !verdict.allowed)
    throw validationError(field, `${target.hostname} is ${verdict.reason}: not an allowed target`, 'url_not_allowed');
}

/** An endpoint's URL as the audit log keeps it: its origin alone, as its path and query often carry a token. */
function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return REDACTED;
  }
}

/**
 * Records `webhook.<verb>` in the audit log with what changed, in the transaction of the change; its signing secret
 * never (a change of it is named, its value redacted), its URL by origin.
 */
function recordEndpointChange(
  tx: Executor,
  verb: string,
  before: repo.EndpointRow | null,
  after: repo.EndpointRow,
  extra: Record<string, [unknown, unknown]> = {},
): Promise<void> {
  const fields = (row: repo.EndpointRow | null) =>
    row && {
      events: row.events,
      description: row.description,
      enabled: row.enabled,
    };
  const url: Record<string, [unknown, unknown]> =
    before?.url === after.url ? {} : { url: [before && urlOrigin(before.url), urlOrigin(after.url)] };
  const all = { ...url, ...changesOf(fields(before), fields(after)!), ...extra };
  return recordAudit(tx, {
    action: `webhook.${verb}`,
    resourceType: 'webhook',
    resourceId: after.id,
    projectId: after.projectId,
    changes: Object.keys(all).length > 0 ? all : null,
  });
}

async function endpointOf(db: Executor, projectId: string, id: string): Promise<repo.EndpointRow> {
  const row = isId(id) ? await repo.findEndpoint(db, projectId, id) : null;
  if (!row) throw notFound('Webhook');
  return row;
}

/** POST /webhooks: the secret is returned once, here. */
export async function createWebhook(opts: {
  ctx: AppContext;
  projectId: string;
  input: CreateWebhookInput;
}): Promise<WebhookView & { secret: string }> {
  const { ctx, projectId, input } = opts;
  checkUrl(ctx, input.url, 'url');
  const format = input.format ?? 'herald';
  const events = normalizeEvents(input.events, format);
  const id = newId();
  const secret = generateWebhookSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertEndpoint(tx, {
      id,
      projectId,
      url: input.url,
      events,
      format,
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      secret: seal(secret, ctx.secrets.appSecret, id),
    });
    await recordEndpointChange(tx, 'created', null, created);
    return created;
  });
  return { ...toWebhookView(row), secret };
}

export async function listWebhooks(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
}) {
  const { rows, total } = await repo.listEndpoints(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, toWebhookView);
}

export async function getWebhook(opts: { db: Executor; projectId: string; id: string }): Promise<WebhookView> {
  return toWebhookView(await endpointOf(opts.db, opts.projectId, opts.id));
}

/** PATCH /webhooks/{id}: re-enabling clears the failure state, so a fixed endpoint starts afresh. */
export async function updateWebhook(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  input: UpdateWebhookInput;
}): Promise<WebhookView> {
  const { ctx, input } = opts;
  const before = await endpointOf(ctx.db, opts.projectId, opts.id);
  if (input.url !== undefined) checkUrl(ctx, input.url, 'url');
  const events = input.events === undefined ? undefined : normalizeEvents(input.events, before.format);
  const row = await ctx.db.transaction(async (tx) => {
    const updated = await repo.updateEndpoint(tx, opts.projectId, opts.id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(events !== undefined ? { events } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined
        ? { enabled: input.enabled, ...(input.enabled ? { failingSince: null, disabledReason: null } : {}) }
        : {}),
    });
    await recordEndpointChange(tx, 'updated', before, updated!);
    return updated!;
  });
  return toWebhookView(row);
}

export async function deleteWebhook(opts: {
  db: Executor;
  projectId: string;
  id: string;
}): Promise<{ id: string; deleted: true }> {
  const deleted =
    isId(opts.id) &&
    (await opts.db.transaction(async (tx) => {
      const row = await repo.deleteEndpoint(tx, opts.projectId, opts.id);
      if (row) {
        await recordAudit(tx, {
          action: 'webhook.deleted',
          resourceType: 'webhook',
          resourceId: opts.id,
          projectId: opts.projectId,
          changes: { url: [urlOrigin(row.url), null] },
        });
      }
      return row !== null;
    }));
  if (!deleted) throw notFound('Webhook');
  return { id: opts.id, deleted: true };
}

/** POST /webhooks/{id}/rotate-secret: a new secret now; the old one keeps signing too for 24 h. */
export async function rotateWebhookSecret(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
}): Promise<WebhookView & { secret: string }> {
  const { ctx } = opts;
  const current = await endpointOf(ctx.db, opts.projectId, opts.id);
  const secret = generateWebhookSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const rotated = await repo.updateEndpoint(tx, opts.projectId, opts.id, {
      secret: seal(secret, ctx.secrets.appSecret, current.id),
      previousSecret: current.secret,
      previousSecretUntil: new Date(Date.now() + ROTATION_OVERLAP_HOURS * 3600_000),
    });
    await recordEndpointChange(tx, 'secret_rotated', current, rotated!, { secret: [REDACTED, REDACTED] });
    return rotated!;
  });
  return { ...toWebhookView(row), secret };
}

export async function listWebhookDeliveries(opts: {
  db: Executor;
  projectId: string;
  id: string;
  limit: number;
  cursor?: string | undefined;
  status?: 'PENDING' | 'SUCCEEDED' | 'FAILED' | undefined;
}) {
  const endpoint = await endpointOf(opts.db, opts.projectId, opts.id);
  const { rows, total } = await repo.listDeliveries(opts.db, endpoint.id, opts);
  return toPage(rows, opts.limit, total, toDeliveryView);
}

/** One delivery of an endpoint of the project, with the body it sends (404 for another endpoint's). */
export async function getWebhookDelivery(opts: {
  db: Executor;
  projectId: string;
  id: string;
  deliveryId: string;
}): Promise<DeliveryView & { payload: repo.DeliveryRow['payload'] }> {
  const endpoint = await endpointOf(opts.db, opts.projectId, opts.id);
  const row = isId(opts.deliveryId) ? await repo.findDelivery(opts.db, endpoint.id, opts.deliveryId) : null;
  if (!row) throw notFound('Delivery');
  return { ...toDeliveryView(row), payload: row.payload };
}

/** POST /webhooks/{id}/deliveries/{deliveryId}/retry: due now again, with the same webhook-id. */
export async function retryWebhookDelivery(opts: {
  db: Executor;
  projectId: string;
  id: string;
  deliveryId: string;
}): Promise<DeliveryView> {
  const endpoint = await endpointOf(opts.db, opts.projectId, opts.id);
  const before = isId(opts.deliveryId) ? await repo.findDelivery(opts.db, endpoint.id, opts.deliveryId) : null;
  if (!before) throw notFound('Delivery');
  const row = await opts.db.transaction(async (tx) => {
    const requeued = await repo.requeueDelivery(tx, endpoint.id, before.id);
    if (requeued) {
      await recordAudit(tx, {
        action: 'webhook_delivery.retried',
        resourceType: 'webhook_delivery',
        resourceId: requeued.id,
        projectId: endpoint.projectId,
        changes: { webhookId: [null, endpoint.id], status: [before.status, requeued.status] },
      });
    }
    return requeued;
  });
  if (!row) throw notFound('Delivery');
  return toDeliveryView(row);
}

/** Queues a `webhook.test` delivery for this endpoint only (`webhook.tested`); the caller attempts it at once. */
export async function queueTestEvent(opts: { db: Executor; projectId: string; id: string }): Promise<repo.DeliveryRow> {
  const endpoint = await endpointOf(opts.db, opts.projectId, opts.id);
  const id = newId();
  const createdAt = new Date();
  const message = 'This is a test event from Herald.';
  const payload =
    endpoint.format === 'resend'
      ? { type: 'webhook.test', created_at: createdAt.toISOString(), data: { webhook_id: endpoint.id, message } }
      : { type: 'webhook.test', createdAt: createdAt.toISOString(), data: { webhookId: endpoint.id, message } };
  return opts.db.transaction(async (tx) => {
    await repo.insertDeliveries(tx, [
      { id, projectId: endpoint.projectId, endpointId: endpoint.id, eventType: 'webhook.test', createdAt, payload },
    ]);
    await recordEndpointChange(tx, 'tested', endpoint, endpoint, { deliveryId: [null, id] });
    return (await repo.findDelivery(tx, endpoint.id, id))!;
  });
}
