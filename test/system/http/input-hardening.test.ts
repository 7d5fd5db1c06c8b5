/**
 * Inputs that used to answer 500 (deep nesting, NUL, names of only white space,
 * impossible dates) and the small ones (text/plain, the admin token's message, what a 500 logs, body limits).
 */
import net from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { errorShape, expectError, expectValidation } from '../../support/envelope.ts';

const json = { 'content-type': 'application/json' };
/** `{"a":{"a":…1…}}` nested `levels` deep, as text (JSON.stringify itself would overflow on the way in). */
const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('inputs that used to answer 500', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let contactId: string;

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await t.createProject()).auth;
    const created = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: { email: 'deep@example.com' },
    });
    contactId = created.json().data.id;
  });
  afterAll(() => t.close());

  it('refuses deeply nested data with a 422 on /v1/track, /track, POST and PATCH /contacts', async () => {
    const deep = nested(5000);
    const requests = [
      { method: 'POST' as const, url: '/v1/track', payload: `{"email":"deep@example.com","event":"e","data":${deep}}` },
      { method: 'POST' as const, url: '/track', payload: `{"email":"deep@example.com","event":"e","data":${deep}}` },
      { method: 'POST' as const, url: '/contacts', payload: `{"email":"deep@example.com","data":${deep}}` },
      { method: 'PATCH' as const, url: `/contacts/${contactId}`, payload: `{"data":${deep}}` },
    ];
    for (const r of requests) {
      const res = await t.app.inject({ ...r, headers: { ...auth, ...json } });
      expectError(res, 422, 'VALIDATION_ERROR');
    }
    // data has its own, smaller cap: 16 levels pass, 17 do not.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...auth, ...json },
      payload: `{"email":"deep@example.com","data":${nested(16)}}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const tooDeep = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...auth, ...json },
      payload: `{"email":"deep@example.com","data":${nested(17)}}`,
    });
    expect(expectError(tooDeep, 422, 'VALIDATION_ERROR').error.errors?.[0]?.code).toBe('too_deep');
  });

  it('refuses names of only white space or invisible characters on every named resource, POST and PATCH', async () => {
    const someId = '01900000-0000-7000-8000-000000000000';
    for (const name of [' ', '\t\n', '\u200b', '\u00a0\ufeff', 'a\u0007b']) {
      const requests = [
        {
          method: 'POST' as const,
          url: '/templates',
          headers: auth,
          payload: { name, subject: 's', body: 'b', type: 'TRANSACTIONAL' },
        },
        { method: 'PATCH' as const, url: `/templates/${someId}`, headers: auth, payload: { name } },
        {
          method: 'POST' as const,
          url: '/campaigns',
          headers: auth,
          payload: { name, subject: 's', body: 'b', from: 'a@example.com', audienceType: 'ALL' },
        },
        { method: 'PATCH' as const, url: `/campaigns/${someId}`, headers: auth, payload: { name } },
        {
          method: 'POST' as const,
          url: '/segments',
          headers: auth,
          payload: { name, filter: { field: 'subscribed', operator: 'equals', value: true } },
        },
        { method: 'PATCH' as const, url: `/segments/${someId}`, headers: auth, payload: { name } },
        { method: 'POST' as const, url: '/admin/projects', headers: t.admin, payload: { name } },
        { method: 'PATCH' as const, url: `/admin/projects/${someId}`, headers: t.admin, payload: { name } },
      ];
      for (const r of requests) expectValidation(await t.app.inject(r), 'name');
    }
  });

  it('refuses NUL in search, data values and keys, event names and path ids with a 422', async () => {
    expectValidation(await t.app.inject({ method: 'GET', url: '/contacts?search=a%00b', headers: auth }), 'search');
    expectValidation(await t.app.inject({ method: 'GET', url: '/templates?search=a%00b', headers: auth }), 'search');
    expectValidation(await t.app.inject({ method: 'GET', url: '/events?name=a%00b', headers: auth }), 'name');
    expectValidation(
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: auth,
        payload: { email: 'n@example.com', data: { k: 'a\u0000b' } },
      }),
      'data.k',
    );
    const key = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: { email: 'n@example.com', data: { nested: { 'k\u0000': 1 } } },
    });
    expect(expectError(key, 422, 'VALIDATION_ERROR').error.errors?.[0]?.code).toBe('nul_character');
    expectValidation(
      await t.app.inject({
        method: 'POST',
        url: '/v1/track',
        headers: auth,
        payload: { email: 'n@example.com', event: 'sign\u0000up' },
      }),
      'event',
    );
    expectValidation(
      await t.app.inject({
        method: 'POST',
        url: '/v1/track',
        headers: auth,
        payload: { email: 'n@example.com', event: 'e', data: { list: ['ok', 'x\u0000'] } },
      }),
      'data.list.1',
    );
    expectError(
      await t.app.inject({ method: 'DELETE', url: '/suppressions/a%00b@example.com', headers: auth }),
      422,
      'VALIDATION_ERROR',
    );
    // Nothing of it reached the database: the project still lists normally.
    expect((await t.app.inject({ method: 'GET', url: '/contacts', headers: auth })).statusCode).toBe(200);
  });

  it('refuses __proto__, constructor and prototype keys with a 422 naming them', async () => {
    for (const body of [
      '{"email":"p@example.com","data":{"__proto__":{"admin":true}}}',
      '{"email":"p@example.com","data":{"constructor":{"prototype":{"x":1}}}}',
      '{"email":"p@example.com","data":{"prototype":1}}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: { ...auth, ...json },
        payload: body,
      });
      expect(expectError(res, 422, 'VALIDATION_ERROR').error.errors?.[0]?.code).toBe('forbidden_key');
    }
  });

  it('validates filter dates strictly, so no stored filter can break GET /segments', async () => {
    for (const value of ['0000-01-01', '2024-02-30', '2023-02-29T10:00:00Z', '2024-01-01T24:00']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/segments',
        headers: auth,
        payload: { name: 'Dates', filter: { field: 'createdAt', operator: 'greaterThan', value } },
      });
      expectValidation(res, 'filter.value');
      const data = await t.app.inject({
        method: 'POST',
        url: '/segments',
        headers: auth,
        payload: { name: 'Dates', filter: { field: 'data.since', operator: 'lessThan', value } },
      });
      expectValidation(data, 'filter.value');
    }
    const good = await t.app.inject({
      method: 'POST',
      url: '/segments',
      headers: auth,
      payload: { name: 'Leap day', filter: { field: 'createdAt', operator: 'greaterThan', value: '2024-02-29' } },
    });
    expect(good.statusCode, good.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: '/segments', headers: auth })).statusCode).toBe(200);
  });

  it('answers very long path ids in the envelope: 404 up to the router limit, 414 past it', async () => {
    expectError(
      await t.app.inject({ method: 'GET', url: `/contacts/${'x'.repeat(2000)}`, headers: auth }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/contacts/${'x'.repeat(3000)}`, headers: auth }),
      414,
      'URI_TOO_LONG',
    );
    expectError(
      await t.app.inject({ method: 'POST', url: `/campaigns/${'x'.repeat(3000)}/send`, headers: auth }),
      414,
      'URI_TOO_LONG',
    );
    // A GET falls through to the dashboard's catch-all, which answers API paths with the JSON 404.
    const get = expectError(
      await t.app.inject({ method: 'GET', url: `/contacts/${'x'.repeat(3000)}`, headers: auth }),
      404,
      'NOT_FOUND',
    );
    expect(get.error.message.length).toBeLessThan(300);
  });
});

describe('the small ones', () => {
  let t: TestApp;
  let auth: { authorization: string };
  const lines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({
      logger: pino({ level: 'error' }, sink),
      register: (app) => {
        app.get('/test/failing-query', { config: { auth: 'secret' } }, async () => {
          await t.ctx.db.execute(sql`select ${'<p>rendered html of someone</p>'}::int as n`);
          return { success: true, data: null };
        });
      },
    });
    auth = (await t.createProject()).auth;
  });
  afterAll(() => t.close());

  it('answers a text/plain body with 415, not 422', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'email=a@example.com',
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('says "admin token" to a wrong admin token, not "project key"', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/projects', headers: auth });
    const body = expectError(res, 401, 'UNAUTHORIZED');
    expect(body.error.message).toBe('Invalid admin token');
    expect(body.error.suggestion).toContain('ADMIN_TOKEN');
    expect(`${body.error.message} ${body.error.suggestion}`).not.toMatch(/sk_|pk_|project key \(/);
  });

  it('logs the statement of a failing query, never the values bound to it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/failing-query', headers: auth });
    expectError(res, 500, 'INTERNAL_ERROR');
    const logged = lines.join('');
    expect(logged).toContain('select $1::int as n');
    expect(logged).toContain('22P02');
    expect(logged).not.toContain('rendered html of someone');
  });

  it('limits JSON bodies to 1 MB, except where attachments are accepted', async () => {
    const big = { email: 'big@example.com', data: { blob: 'x'.repeat(1024 * 1024) } };
    expectError(
      await t.app.inject({ method: 'POST', url: '/contacts', headers: auth, payload: big }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/templates',
        headers: auth,
        payload: { name: 'n', subject: 's', type: 'TRANSACTIONAL', body: 'x'.repeat(1024 * 1024) },
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const attachment = { filename: 'a.bin', content: Buffer.alloc(3 * 1024 * 1024).toString('base64') };
    for (const url of ['/v1/send', '/send']) {
      // Past the body limit of other routes, /v1/send still reads the request (and answers its own 422: no sender).
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: auth,
        payload: { to: 'r@example.com', subject: 's', body: 'b', attachments: [attachment] },
      });
      expect(res.statusCode, res.body).toBe(422);
    }
  });
});

describe('errors of the HTTP layer itself', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  /** Sends raw bytes and reads the whole answer (the server closes the connection after such errors). */
  const raw = (bytes: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
      let data = '';
      socket.on('data', (chunk) => {
        data += String(chunk);
      });
      socket.on('error', reject);
      socket.on('close', () =>
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]),
          body: data.slice(data.indexOf('\r\n\r\n') + 4),
        }),
      );
    });

  it('answers a malformed request and oversized headers in the envelope', async () => {
    const garbage = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(errorShape.parse(JSON.parse(garbage.body)).error.code).toBe('BAD_REQUEST');
    const headers = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(errorShape.parse(JSON.parse(headers.body)).error.code).toBe('HEADERS_TOO_LARGE');
  });
});
