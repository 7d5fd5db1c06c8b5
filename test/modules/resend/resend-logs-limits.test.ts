// The official SDK's logs against a running Herald's request log (requests made through the SDK, read back with
// their bodies, the list walked both ways), and Resend's rate-limit headers and 429 as the SDK surfaces them.
import { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushRequestLog } from '../../../src/modules/logs/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { resendBaseUrl } from '../../support/resend.ts';

describe('the Resend SDK: logs', () => {
  let t: TestApp;
  let base: string;
  let resend: Resend;

  beforeAll(async () => {
    t = await createTestApp();
    const project = await t.createProject('Logged');
    base = await resendBaseUrl(t.app);
    resend = new Resend(project.secretKey, { baseUrl: base });
  });
  afterAll(() => t.close());

  it('lists the requests made with the SDK, newest first, and gets one with its bodies', async () => {
    for (const email of ['log-a@example.com', 'log-b@example.com', 'log-c@example.com'])
      expect((await resend.contacts.create({ email, firstName: 'Lo' })).error).toBeNull();
    await flushRequestLog(t.ctx);

    const page = await resend.logs.list({ limit: 3 });
    expect(page.error).toBeNull();
    expect(page.data).toMatchObject({ object: 'list', has_more: false });
    expect(page.data!.data).toHaveLength(3);
    expect(page.data!.data[0]).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      endpoint: '/resend/contacts',
      method: 'POST',
      response_status: 200,
      user_agent: expect.stringMatching(/^resend-node/),
    });

    const one = await resend.logs.get(page.data!.data[0]!.id);
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject({
      object: 'log',
      endpoint: '/resend/contacts',
      request_body: { email: 'log-c@example.com', first_name: 'Lo' },
      response_body: { object: 'contact', id: expect.any(String) },
    });
  });

  it('walks the log to the end with after, and back with before', async () => {
    await flushRequestLog(t.ctx);
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await resend.logs.list(after ? { limit: 2, after } : { limit: 2 });
      all.push(...page.data!.data.map((e) => e.id));
      if (!page.data!.has_more) break;
      after = all.at(-1);
    }
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(new Set(all).size).toBe(all.length);
    const back = await resend.logs.list({ limit: 2, before: all[3]! });
    expect(back.data).toMatchObject({ has_more: true, data: [{ id: all[1] }, { id: all[2] }] });
  });

  it("surfaces Resend's errors: missing and invalid key, restricted key, not found, validation", async () => {
    const missing = await fetch(`${base}/logs`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ name: 'missing_api_key' });
    expect((await new Resend('sk_nope', { baseUrl: base }).logs.list()).error).toMatchObject({
      statusCode: 403,
      name: 'invalid_api_key',
    });
    const sending = await resend.apiKeys.create({ name: 'Sender', permission: 'sending_access' });
    const restricted = await new Resend(sending.data!.token, { baseUrl: base }).logs.list();
    expect(restricted.error).toMatchObject({ statusCode: 401, name: 'restricted_api_key' });
    expect((await resend.logs.get(crypto.randomUUID())).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await resend.logs.list({ limit: 0 })).error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});

describe('the Resend SDK under a rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('sends rate-limit headers on every answer, and rate_limit_exceeded with retry-after at the limit', async () => {
    const project = await t.createProject('Limited');
    const resend = new Resend(project.secretKey, { baseUrl: await resendBaseUrl(t.app) });
    const first = await resend.domains.list();
    expect(first.error).toBeNull();
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2' });
    expect(Number(first.headers!['ratelimit-reset'])).toBeGreaterThan(0);
    expect((await resend.apiKeys.list()).headers).toMatchObject({ 'ratelimit-remaining': '1' });
    expect((await resend.logs.list()).error).toBeNull();

    const limited = await resend.contacts.list();
    expect(limited.error).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(limited.headers).toMatchObject({ 'ratelimit-remaining': '0' });
    expect(Number(limited.headers!['retry-after'])).toBeGreaterThan(0);
  });
});
