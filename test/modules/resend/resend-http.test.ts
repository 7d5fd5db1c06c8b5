/** What the Resend SDK never sends, over raw HTTP: the errors of a hand-written client still come in Resend's shape. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../support/app.ts';

const resendError = z.object({ statusCode: z.number().int(), name: z.string(), message: z.string() }).strict();

describe('/resend over raw HTTP', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Raw');
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: string,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...project.auth, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });

  function expectResendError(res: Awaited<ReturnType<typeof call>>, status: number, name: string) {
    expect(res.statusCode, res.body).toBe(status);
    const body = resendError.parse(res.json());
    expect(body).toMatchObject({ statusCode: status, name });
    return body;
  }

  it('a missing key is missing_api_key, a malformed one invalid_api_key', async () => {
    expectResendError(await t.app.inject({ method: 'GET', url: '/resend/domains' }), 401, 'missing_api_key');
    expectResendError(
      await t.app.inject({ method: 'GET', url: '/resend/domains', headers: { authorization: 'Bearer nope' } }),
      403,
      'invalid_api_key',
    );
    const pub = await t.app.inject({
      method: 'GET',
      url: '/resend/domains',
      headers: { authorization: `Bearer ${project.publicKey}` },
    });
    expectResendError(pub, 401, 'restricted_api_key');
  });

  it("unknown paths and methods are Resend's 404, never Herald's envelope", async () => {
    for (const [method, url] of [
      ['GET', '/resend/nothing'],
      ['POST', '/resend/emails/x/y/z'],
      ['DELETE', '/resend/emails'],
      ['GET', '/resend'],
    ] as const) {
      const res = await call(method, url, { accept: 'text/html' });
      const body = expectResendError(res, 404, 'not_found');
      expect(body.message).toContain(url);
    }
  });

  it("a malformed URL, refused before routing, and an overlong id are in Resend's shape too", async () => {
    expectResendError(await call('GET', '/resend/emails/%E0%A4%A'), 400, 'validation_error');
    expectResendError(await call('GET', `/resend/emails/${'x'.repeat(3000)}`), 404, 'not_found');
    // Herald's own paths keep the envelope.
    expect((await call('GET', '/emails/%E0%A4%A')).json()).toMatchObject({
      success: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it("bad JSON, a wrong Content-Type and an oversized body come in Resend's shape", async () => {
    expectResendError(
      await call('POST', '/resend/domains', { 'content-type': 'application/json' }, '{"name": '),
      400,
      'validation_error',
    );
    expectResendError(
      await call('POST', '/resend/domains', { 'content-type': 'text/plain' }, 'name=x'),
      415,
      'validation_error',
    );
    const big = JSON.stringify({ name: 'x.test', pad: 'x'.repeat(2 * 1024 * 1024) });
    expectResendError(
      await call('POST', '/resend/domains', { 'content-type': 'application/json' }, big),
      413,
      'validation_error',
    );
    expectResendError(
      await call('POST', '/resend/domains', { 'content-type': 'application/json' }, '{}'),
      422,
      'validation_error',
    );
    expectResendError(
      await call(
        'POST',
        '/resend/domains',
        { 'content-type': 'application/json', 'idempotency-key': '' },
        '{"name":"k.test"}',
      ),
      400,
      'invalid_idempotency_key',
    );
  });

  it('verify takes Content-Type application/json with no body, as the SDK sends it', async () => {
    const created = await call(
      'POST',
      '/resend/domains',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'empty-body.test' }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json() as { id: string };
    const verified = await call('POST', `/resend/domains/${id}/verify`, { 'content-type': 'application/json' });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ object: 'domain', id });
    expectResendError(
      await call('POST', `/resend/domains/${crypto.randomUUID()}/verify`, { 'content-type': 'application/json' }),
      404,
      'not_found',
    );
  });

  it("the Resend routes are in the OpenAPI document under their own tag, with Resend's error shape", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      tags: { name: string }[];
      paths: Record<
        string,
        Record<
          string,
          { tags: string[]; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }
        >
      >;
    };
    const names = doc.tags.map((tag) => tag.name);
    expect(names.indexOf('Resend')).toBeGreaterThan(names.indexOf('Domains'));
    expect(names.indexOf('Resend')).toBeLessThan(names.indexOf('Health'));
    const send = doc.paths['/resend/emails']!.post!;
    expect(send.tags).toEqual(['Resend']);
    expect(send.responses['401']!.content!['application/json']!.schema.$ref).toBe('#/components/schemas/ResendError');
    for (const path of ['/resend/domains/{id}/verify', '/resend/contacts/{id}', '/resend/emails/{id}'])
      expect(doc.paths[path], path).toBeDefined();
  });
});

describe('/resend under a rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => t.close());

  it("answers rate_limit_exceeded with Retry-After once the project's limit is spent", async () => {
    const project = await t.createProject('Limited');
    const get = () => t.app.inject({ method: 'GET', url: '/resend/domains', headers: project.auth });
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    const limited = await get();
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toEqual({ statusCode: 429, name: 'rate_limit_exceeded', message: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
