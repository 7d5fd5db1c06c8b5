// Herald's typed client: openapi-fetch over the types generated from Herald's OpenAPI document (schema.d.ts), with
// the key on every request, retries by the rules of retry.ts, and an Idempotency-Key on every send.
import createClient, { type Client, type FetchResponse, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';
import { DEFAULT_RETRY_POLICY, retryingFetch, type RetryPolicy } from './retry.js';

export type { components, operations, paths } from './schema.js';
export { backoffDelay, isRepeatable, parseRetryAfter, retryDelay, type RetryPolicy } from './retry.js';

/** The error envelope of every Herald endpoint outside the Resend-compatible `/resend` routes. */
export type HeraldError = components['schemas']['Error'];

type SendEmail = operations['sendEmail'];
type TrackEvent = operations['trackEvent'];
export type SendEmailBody = SendEmail['requestBody']['content']['application/json'];
export type TrackEventBody = TrackEvent['requestBody']['content']['application/json'];

/**
 * The routes that send mail: each try of one carries the same Idempotency-Key (the caller's, or one made for it), so
 * a send retried after a lost answer or a server error is sent once.
 */
export const SEND_PATHS: ReadonlySet<string> = new Set<keyof paths>([
  '/v1/send',
  '/v1/send/batch',
  '/resend/emails',
  '/resend/emails/batch',
]);

export interface HeraldClientOptions {
  /** Where Herald answers, e.g. `https://mail.example.com`. */
  baseUrl: string;
  /** A secret key (`sk_…`), or a public key (`pk_…`) for `/v1/track` and `/v1/subscribe` only. */
  apiKey: string;
  /** How many times a request may be tried again after its first try (default 2: three tries at most; 0: none). */
  retries?: number;
  /** The back-off before the first retry when the answer names no Retry-After, doubled for each next (ms, 500). */
  retryDelayMs?: number;
  /** The longest wait between two tries (ms, 30,000); an answer asking for a longer Retry-After is returned. */
  maxRetryDelayMs?: number;
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface SendOptions {
  /** Your key for this send (1–255 printable ASCII); by default a fresh UUID, the same on every try. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

type AnyMedia = `${string}/${string}`;

export interface HeraldClient extends Client<paths> {
  /** `POST /v1/send`. */
  send(
    body: SendEmailBody,
    options?: SendOptions,
  ): Promise<FetchResponse<SendEmail, { body: SendEmailBody }, AnyMedia>>;
  /** `POST /v1/track`: upserts the contact and records the event. */
  track(
    body: TrackEventBody,
    options?: { signal?: AbortSignal },
  ): Promise<FetchResponse<TrackEvent, { body: TrackEventBody }, AnyMedia>>;
}

/** Gives every send an Idempotency-Key before its first try, unless the caller set one. */
const idempotentSends: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method === 'POST' && SEND_PATHS.has(schemaPath) && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
    }
    return request;
  },
};

function policyOf(options: HeraldClientOptions): RetryPolicy {
  const { retries, retryDelayMs, maxRetryDelayMs } = options;
  for (const [name, value] of Object.entries({ retries, retryDelayMs, maxRetryDelayMs })) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new RangeError(`${name} must be a whole number ≥ 0`);
    }
  }
  return {
    retries: retries ?? DEFAULT_RETRY_POLICY.retries,
    baseDelayMs: retryDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: maxRetryDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
}

/** A client of the Herald API at `baseUrl`: `GET`, `POST`, … typed by path, plus `send` and `track`. */
export function createHeraldClient(options: HeraldClientOptions): HeraldClient {
  if (!options.apiKey) throw new TypeError('apiKey is required');
  const fetchOnce = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(fetchOnce, policyOf(options)),
  });
  api.use(idempotentSends);
  return Object.assign(api, {
    send(body: SendEmailBody, { idempotencyKey, signal }: SendOptions = {}) {
      const headers = idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey };
      return api.POST('/v1/send', { body, headers, ...(signal ? { signal } : {}) });
    },
    track(body: TrackEventBody, { signal }: { signal?: AbortSignal } = {}) {
      return api.POST('/v1/track', { body, ...(signal ? { signal } : {}) });
    },
  });
}
