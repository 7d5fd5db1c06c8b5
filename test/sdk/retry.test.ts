/**
 * The typed client's retry rules as pure functions (which answers are tried again, and after how long), and the
 * options that set them.
 */
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createHeraldClient,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from '../../sdk/src/index.ts';
import { retryingFetch } from '../../sdk/src/retry.ts';

const policy: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 30_000 };

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it.each([
    ['0', 0],
    ['7', 7000],
    [' 2 ', 2000],
    ['Tue, 01 Jan 2030 00:00:03 GMT', 3000],
    ['Mon, 31 Dec 2029 23:00:00 GMT', 0],
    ['soon', null],
    ['-1', null],
    ['1.5', null],
  ])('reads %j as %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it('reads no header as null', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('backoffDelay', () => {
  it('doubles from the base, half of it random, up to the cap', () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(250);
    expect(backoffDelay(0, policy, () => 1)).toBe(500);
    expect(backoffDelay(2, policy, () => 1)).toBe(2000);
    expect(backoffDelay(20, policy, () => 1)).toBe(30_000);
    expect(backoffDelay(20, policy, () => 0)).toBe(15_000);
  });
});

describe('retryDelay', () => {
  const request = (method: string, headers: Record<string, string> = {}) =>
    new Request('http://herald.test/x', { method, headers });
  const answer = (status: number, retryAfter?: string) =>
    new Response(null, { status, headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter } });
  const keyed = { 'Idempotency-Key': 'k' };

  it.each([
    ['a 429 on any request', request('POST'), answer(429, '3'), 3000],
    ['a 503 on a GET', request('GET'), answer(503, '1'), 1000],
    ['a 500 on a DELETE', request('DELETE'), answer(500, '0'), 0],
    ['a 502 on a POST with a key', request('POST', keyed), answer(502, '2'), 2000],
    ['a 409 with Retry-After on a POST with a key', request('POST', keyed), answer(409, '1'), 1000],
  ])('waits on %s', (_label, req, res, ms) => {
    expect(retryDelay(req, res, 0, policy)).toBe(ms);
  });

  it.each([
    ['a 500 on a POST without a key', request('POST'), answer(500)],
    ['a 503 on a POST without a key', request('POST'), answer(503, '1')],
    ['a 503 on a PATCH, even with a key', request('PATCH', keyed), answer(503, '1')],
    ['a 409 without Retry-After', request('POST', keyed), answer(409)],
    ['a 409 on a POST without a key', request('POST'), answer(409, '1')],
    ['a 422', request('GET'), answer(422)],
    ['a 200', request('GET'), answer(200)],
    ['a Retry-After past the cap', request('GET'), answer(503, '31')],
  ])('keeps %s', (_label, req, res) => {
    expect(retryDelay(req, res, 0, policy)).toBeNull();
  });

  it('backs off when the answer names no Retry-After', () => {
    const ms = retryDelay(request('GET'), answer(500), 1, policy);
    expect(ms).toBeGreaterThanOrEqual(500);
    expect(ms).toBeLessThanOrEqual(1000);
  });
});

describe('retryingFetch', () => {
  it('sends the same body and headers on every try', async () => {
    const tries: { body: string; key: string | null }[] = [];
    const fetchOnce = async (req: Request) => {
      tries.push({ body: await req.text(), key: req.headers.get('Idempotency-Key') });
      return new Response(null, { status: tries.length < 3 ? 503 : 200, headers: { 'Retry-After': '0' } });
    };
    const init = { method: 'POST', body: '{"a":1}', headers: { 'Idempotency-Key': 'k1' } };
    const res = await retryingFetch(fetchOnce, policy)(new Request('http://herald.test/v1/send', init));
    expect(res.status).toBe(200);
    expect(tries).toEqual(Array.from({ length: 3 }, () => ({ body: '{"a":1}', key: 'k1' })));
  });

  it('stops waiting when the request is aborted', async () => {
    const controller = new AbortController();
    const fetchOnce = async () => {
      controller.abort();
      return new Response(null, { status: 503, headers: { 'Retry-After': '30' } });
    };
    const req = new Request('http://herald.test/contacts', { signal: controller.signal });
    await expect(retryingFetch(fetchOnce, policy)(req)).rejects.toThrow(/abort/i);
  });

  it('tries no more than once when retries is 0', async () => {
    let tries = 0;
    const fetchOnce = async () => {
      tries++;
      return new Response(null, { status: 503, headers: { 'Retry-After': '0' } });
    };
    const res = await retryingFetch(fetchOnce, { ...policy, retries: 0 })(new Request('http://herald.test/x'));
    expect(res.status).toBe(503);
    expect(tries).toBe(1);
  });
});

describe('createHeraldClient', () => {
  it.each([{ retries: -1 }, { retries: 1.5 }, { retryDelayMs: Number.NaN }, { maxRetryDelayMs: -5 }])(
    'refuses %j',
    (option) => {
      expect(() => createHeraldClient({ baseUrl: 'http://herald.test', apiKey: 'sk_x', ...option })).toThrow(
        RangeError,
      );
    },
  );
});
