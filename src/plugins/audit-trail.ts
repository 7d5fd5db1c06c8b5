import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runWithOrigin } from '../lib/request-origin.ts';

/** An entry as the audit module records it (supplied by the app, so this plugin imports no module). */
export interface TrailEntry {
  action: string;
  resourceType: string;
  resourceId: string | null;
  projectId: string | null;
}

/**
 * Requests whose changes are kept in the email and event logs instead: sending, tracking, verifying, subscribing
 * and the MCP endpoint's transport (its tools' changes are requests of their own).
 */
export const NOT_AUDITED: ReadonlySet<string> = new Set([
  '/v1/send',
  '/send',
  '/v1/send/batch',
  '/v1/track',
  '/track',
  '/v1/verify',
  '/verify',
  '/v1/verify/batch',
  '/verify/batch',
  '/v1/subscribe',
  '/resend/emails',
  '/resend/emails/batch',
  '/mcp',
]);

const PAST: Record<string, string> = {
  POST: 'created',
  PUT: 'updated',
  PATCH: 'updated',
  DELETE: 'deleted',
  send: 'sent',
  cancel: 'cancelled',
  schedule: 'scheduled',
  verify: 'verified',
  test: 'tested',
  retry: 'retried',
  pause: 'paused',
  resume: 'resumed',
  duplicate: 'duplicated',
  import: 'imported',
  export: 'exported',
  rotate: 'rotated',
  enable: 'enabled',
  disable: 'disabled',
  publish: 'published',
  restore: 'restored',
  reschedule: 'rescheduled',
  resubscribe: 'resubscribed',
};

const RESOURCE_NAMES: Record<string, string> = {
  'api-keys': 'key',
  'audit-log': 'audit',
  inbound: 'inbound_message',
  settings: 'settings',
};

/** `<resource>.<verb>` of a route (POST /campaigns/:id/send → campaign.sent; DELETE /api-keys/:id → key.deleted). */
export function actionOf(method: string, url: string): { action: string; resourceType: string } {
  const parts = url.split('/').filter((p) => p && p !== 'v1' && p !== 'admin' && p !== 'resend');
  const first = parts[0] ?? 'instance';
  const resourceType = RESOURCE_NAMES[first] ?? first.replace(/-/g, '_').replace(/ies$/, 'y').replace(/s$/, '');
  const last = parts[parts.length - 1]!;
  const verb = parts.length > 1 && !last.startsWith(':') ? last : method;
  return { action: `${resourceType}.${PAST[verb] ?? verb.replace(/-/g, '_')}`, resourceType };
}

function resourceIdOf(request: FastifyRequest, payload: unknown): string | null {
  const params = request.params as Record<string, unknown> | undefined;
  const fromParams = params?.id ?? params?.userId ?? params?.keyId;
  if (typeof fromParams === 'string') return fromParams.slice(0, 200);
  if (typeof payload !== 'string' || payload.length > 100_000) return null;
  try {
    const data = (JSON.parse(payload) as { data?: { id?: unknown } }).data;
    return typeof data?.id === 'string' ? data.id.slice(0, 200) : null;
  } catch {
    return null;
  }
}

/**
 * Every successful change made through the API is in the audit log: the modules record theirs in the transaction
 * that makes it; one that recorded nothing (a route whose module does not yet name its change) is recorded here as
 * `<resource>.<verb>` once it has succeeded.
 */
export function registerAuditTrail(app: FastifyInstance, record: (entry: TrailEntry) => Promise<void>): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const origin = request.origin;
    const mode = request.routeOptions.config.auth;
    if (!origin || origin.recorded > 0 || mode === undefined || mode === 'none' || reply.statusCode >= 300)
      return payload;
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method)) return payload;
    const url = request.routeOptions.url ?? '';
    if (NOT_AUDITED.has(url)) return payload;
    const params = request.params as Record<string, unknown> | undefined;
    const projectId =
      request.auth?.projectId ??
      (url.startsWith('/admin/projects/') && typeof params?.id === 'string' ? params.id : null);
    await runWithOrigin(origin, () =>
      record({ ...actionOf(request.method, url), resourceId: resourceIdOf(request, payload), projectId }),
    );
    return payload;
  });
}
