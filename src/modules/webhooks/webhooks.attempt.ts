// One attempt of one delivery: a POST signed as Standard Webhooks (under Svix's header names for a resend endpoint,
// as Resend signs) through the SSRF-safe client, and what its result means for the delivery.
import type { AppContext } from '../../context.types.ts';
import { decryptPrivateKey as unseal } from '../../mail/dkim-keys.ts';
import { OutboundRequestError, webhookHeaders } from '../../net/index.ts';
import type { ClaimedDelivery, DeliveryOutcome } from './webhooks.queue.ts';

/** After the first attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then FAILED. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
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
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Herald-Webhooks/1.0',
    ...webhookHeaders({ id: delivery.id, body, secrets, prefix: delivery.format === 'resend' ? 'svix' : 'webhook' }),
  };
  try {
    // SSRF-checked after DNS, pinned to the checked address, no redirects (a 3xx is a failure), 10 s deadline.
    const response = await ctx.outbound.request({ url: delivery.url, method: 'POST', headers, body });
    const ok = response.status >= 200 && response.status < 300;
    const retryAfter = Number(response.headers['retry-after']);
    return {
      ok,
      status: response.status,
      error: ok ? null : `HTTP ${response.status}`,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    };
  } catch (error) {
    const refused = error instanceof OutboundRequestError && !error.retryable;
    return {
      ok: false,
      status: null,
      error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      retryAfterSeconds: null,
      refused,
    };
  }
}

/** What an attempt means for its delivery: done, failed for good, or due again after the schedule's pause. */
export function outcomeOf(delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>, result: AttemptResult): DeliveryOutcome {
  if (result.ok)
    return {
      id: delivery.id,
      status: 'SUCCEEDED',
      responseStatus: result.status,
      lastError: null,
      retryInSeconds: null,
    };
  const pause = RETRY_SCHEDULE_SECONDS[delivery.attempts - 1];
  if (pause === undefined || result.status === 410 || result.refused)
    return {
      id: delivery.id,
      status: 'FAILED',
      responseStatus: result.status,
      lastError: result.error,
      retryInSeconds: null,
    };
  return {
    id: delivery.id,
    status: 'PENDING',
    responseStatus: result.status,
    lastError: result.error,
    retryInSeconds: Math.max(pause, Math.min(result.retryAfterSeconds ?? 0, 36000)),
  };
}
