/**
 * Public keys ship in web pages, so their traffic has buckets of its own (per key and per
 * client address) and can never spend the project's limit that its server-side secret-key calls live on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';

const track = (i: number) => ({ email: `visitor${i}@example.com`, event: 'page_view' });

describe('rate limits of public-key traffic', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '5',
        PUBLIC_RATE_LIMIT_PER_MINUTE: '5',
        PUBLIC_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '3',
      },
    });
  });
  afterAll(() => t.close());

  it('never lets a public key starve the secret key of its project', async () => {
    const project = await t.createProject();
    const pk = { authorization: `Bearer ${project.publicKey}` };
    const statuses: number[] = [];
    // Spread over addresses, so the per-key bucket is the one that runs out.
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/track',
        headers: pk,
        payload: track(i),
        remoteAddress: `203.0.113.${10 + i}`,
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
    }
    expect(statuses).toContain(429);
    const sk = await t.app.inject({ method: 'GET', url: '/contacts', headers: project.auth });
    expect(sk.statusCode, sk.body).toBe(200);
    expect(sk.headers['ratelimit-limit']).toBe('5');
    const skTrack = await t.app.inject({ method: 'POST', url: '/v1/track', headers: project.auth, payload: track(99) });
    expect(skTrack.statusCode, skTrack.body).toBe(200);
  });

  it('limits each client address on its own within the public key', async () => {
    const project = await t.createProject('per address');
    const pk = { authorization: `Bearer ${project.publicKey}` };
    const denied: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/track',
        headers: pk,
        payload: track(i),
        remoteAddress: '198.51.100.1',
      });
      if (res.statusCode === 429) denied.push(String(res.headers['ratelimit-limit']));
    }
    // Refused by the address's bucket (3 a minute), before the key's (5) ran out.
    expect(denied[0]).toBe('3');
    const other = await t.app.inject({
      method: 'POST',
      url: '/v1/track',
      headers: pk,
      payload: track(50),
      remoteAddress: '198.51.100.2',
    });
    expect(other.statusCode, other.body).toBe(200);
  });
});
