// When a request is tried again, and after how long. The rules, in full (docs/client.md explains them):
// - a 429 is always retried: the server refuses over the rate limit before it does anything;
// - a request that may safely run twice is also retried on a 5xx, a network error, and a 409 that carries
//   Retry-After (the first try with the same Idempotency-Key is still running). GET, HEAD, OPTIONS, PUT and DELETE
//   may run twice by their meaning; a POST may when it carries an Idempotency-Key, because the server answers a repeat
//   with the first answer instead of doing the work again;
// - any other request (a POST without a key, a PATCH) is retried on a 429 only: after a 5xx or a lost connection
//   nobody knows whether the work was done;
// - the wait is the answer's Retry-After (seconds or an HTTP date), else an exponential back-off with jitter; a
//   Retry-After longer than the cap is not waited for: the answer goes back to the caller.

export interface RetryPolicy {
  /** How many times a request may be tried again after its first try. */
  retries: number;
  /** The back-off before the first retry (doubled for each next one), when the answer names no Retry-After. */
  baseDelayMs: number;
  /** The longest wait between two tries. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 30_000 };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A POST with an Idempotency-Key: the server replays the first answer to a repeat (it reads keys on POST only). */
function isKeyed(request: Request): boolean {
  return request.method === 'POST' && request.headers.has('Idempotency-Key');
}

/** The request may run twice without doing its work twice. */
export function isRepeatable(request: Request): boolean {
  return SAFE_METHODS.has(request.method) || isKeyed(request);
}

/** The wait a Retry-After header asks for, in milliseconds (null when absent or unreadable). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date starts with the day's name ("Tue, 01 Jan 2030 00:00:03 GMT"); Date.parse reads "1.5" as a date too.
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The back-off before retry number `retry` (0 for the first): half of it fixed, half random, capped. */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** How long to wait before trying again after `response`, or null when it is the answer to keep. */
export function retryDelay(request: Request, response: Response, retry: number, policy: RetryPolicy): number | null {
  const { status } = response;
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  const retryable =
    status === 429 ||
    (status >= 500 && isRepeatable(request)) ||
    (status === 409 && retryAfter !== null && isKeyed(request));
  if (!retryable) return null;
  if (retryAfter === null) return backoffDelay(retry, policy);
  return retryAfter <= policy.maxDelayMs ? retryAfter : null;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type Fetch = (request: Request) => Promise<Response>;

/**
 * `fetch` that tries a request again by the rules above. Every try sends the same request — the same headers, so the
 * same Idempotency-Key — and a request aborted by its signal is never tried again.
 */
export function retryingFetch(fetchOnce: Fetch, policy: RetryPolicy): Fetch {
  return async (request) => {
    for (let retry = 0; ; retry++) {
      const last = retry >= policy.retries;
      const attempt = last ? request : request.clone();
      let response: Response;
      try {
        response = await fetchOnce(attempt);
      } catch (error) {
        if (last || request.signal.aborted || !isRepeatable(request)) throw error;
        await sleep(backoffDelay(retry, policy), request.signal);
        continue;
      }
      const delay = last ? null : retryDelay(request, response, retry, policy);
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
