// Sends queued webhook deliveries: claims due ones in batches (leases, SKIP LOCKED), POSTs each signed as
// Standard Webhooks through the SSRF-safe client, and settles the batch in one statement. At-least-once.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.types.ts';
import { decryptPrivateKey as unseal } from '../../mail/dkim-keys.ts';
import { OutboundRequestError, webhookHeaders } from '../../net/index.ts';
import { definePoller } from '../../queue/poller.ts';
import { WEBHOOK_CHANNEL } from './webhooks.emit.ts';
import { claimDeliveries, recordEndpointHealth, settleDeliveries, type ClaimedDelivery, type DeliveryOutcome } from './webhooks.repo.ts';

/** After the first attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then FAILED (CONTRACT §12). */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
/** An endpoint failing this long is disabled. */
export const FAILING_DAYS = 5;
const BATCH = 50;
const LEASE_SECONDS = 60;
/** Endpoints sent to at once by one sender; one endpoint's deliveries go one after another, in order. */
const ENDPOINT_CONCURRENCY = 16;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  retryAfterSeconds: number | null;
  /** The target itself is refused (SSRF policy): retrying cannot help. */
  refused?: boolean;
}

/** One signed POST of a delivery; never throws. */
export async function attemptDelivery(ctx: AppContext, delivery: ClaimedDelivery): Promise<AttemptResult> {
  const body = JSON.stringify(delivery.payload);
  const secrets = [unseal(delivery.secret, ctx.secrets.appSecret, delivery.endpointId)];
  if (delivery.previousSecret && delivery.previousSecretUntil && delivery.previousSecretUntil.getTime() > Date.now()) {
    secrets.push(unseal(delivery.previousSecret, ctx.secrets.appSecret, delivery.endpointId));
  }
  const headers = { 'content-type': 'application/json', 'user-agent': 'Herald-Webhooks/1.0', ...webhookHeaders({ id: delivery.id, body, secrets }) };
  try {
    // SSRF-checked after DNS, pinned to the checked address, no redirects (a 3xx is a failure), 10 s deadline.
    const response = await ctx.outbound.request({ url: delivery.url, method: 'POST', headers, body });
    const ok = response.status >= 200 && response.status < 300;
    const retryAfter = Number(response.headers['retry-after']);
    return { ok, status: response.status, error: ok ? null : `HTTP ${response.status}`, retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null };
  } catch (error) {
    const refused = error instanceof OutboundRequestError && !error.retryable;
    return { ok: false, status: null, error: (error instanceof Error ? error.message : String(error)).slice(0, 500), retryAfterSeconds: null, refused };
  }
}

/** What an attempt means for its delivery: done, failed for good, or due again after the schedule's pause. */
export function outcomeOf(delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>, result: AttemptResult): DeliveryOutcome {
  if (result.ok) return { id: delivery.id, status: 'SUCCEEDED', responseStatus: result.status, lastError: null, retryInSeconds: null };
  const pause = RETRY_SCHEDULE_SECONDS[delivery.attempts - 1];
  if (pause === undefined || result.status === 410 || result.refused) return { id: delivery.id, status: 'FAILED', responseStatus: result.status, lastError: result.error, retryInSeconds: null };
  return { id: delivery.id, status: 'PENDING', responseStatus: result.status, lastError: result.error, retryInSeconds: Math.max(pause, Math.min(result.retryAfterSeconds ?? 0, 36000)) };
}

/** Attempts a claimed batch (endpoints in parallel, each endpoint in order) and settles it. */
export async function sendClaimed(ctx: AppContext, owner: string, claimed: ClaimedDelivery[]): Promise<DeliveryOutcome[]> {
  const byEndpoint = new Map<string, ClaimedDelivery[]>();
  for (const d of claimed) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d]);
  const queues = [...byEndpoint.values()];
  const outcomes: DeliveryOutcome[] = [];
  const health = { succeeded: new Set<string>(), failed: new Set<string>(), gone: new Set<string>() };
  const worker = async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) {
      for (const delivery of queue) {
        const result = await attemptDelivery(ctx, delivery);
        outcomes.push(outcomeOf(delivery, result));
        if (result.ok) health.succeeded.add(delivery.endpointId);
        else if (result.status === 410) health.gone.add(delivery.endpointId);
        else health.failed.add(delivery.endpointId);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENDPOINT_CONCURRENCY, queues.length) }, worker));
  await ctx.db.transaction(async (tx) => {
    await settleDeliveries(tx, owner, outcomes);
    const disabled = await recordEndpointHealth(tx, [...health.succeeded], [...health.failed].filter((id) => !health.succeeded.has(id)), [...health.gone], FAILING_DAYS);
    if (disabled.length > 0) ctx.logger.warn({ endpoints: disabled }, 'webhook endpoints disabled');
  });
  return outcomes;
}

/** One sender round of this process: claim due deliveries, send them, settle them; true when more are due. */
export async function sendDueWebhooks(ctx: AppContext, owner: string): Promise<boolean> {
  const claimed = await claimDeliveries(ctx.db, owner, BATCH, LEASE_SECONDS);
  if (claimed.length > 0) await sendClaimed(ctx, owner, claimed);
  return claimed.length === BATCH;
}

const processOwner = `webhooks:${randomUUID()}`;

/** Sends webhook deliveries in every worker process: woken by the commit that queued them, else every second (retries). */
export const webhookSender = definePoller({
  name: 'webhook-sender',
  intervalMs: 1000,
  wakeOn: WEBHOOK_CHANNEL,
  run: (ctx: AppContext) => sendDueWebhooks(ctx, processOwner),
});
