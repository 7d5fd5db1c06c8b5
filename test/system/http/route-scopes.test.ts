// Every route declares who may call it (route config `auth`): one that does not is refused when it is registered, and
// the routes anyone may call (`none`) are exactly the reviewed list below, so a newly public route fails here. Every
// route that takes a project key declares which key scopes may call it (`scope`). The auth plugin enforces both.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admittedScopes } from '../../../src/lib/keys.ts';
import { declareRouteAccess, routeAccessOf, type RouteAccess } from '../../../src/plugins/auth.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

/**
 * The routes a `sending` key may call: send, batch, track, verify, subscribe, GET /emails/{id}, and the same through
 * the Resend email routes (send, batch, get by id: not list, reschedule or cancel, which the native API keeps from it).
 */
const SENDING_ROUTES = [
  'POST /v1/send', 'POST /send', 'POST /v1/send/batch', 'POST /v1/track', 'POST /track',
  'POST /v1/verify', 'POST /verify', 'POST /v1/verify/batch', 'POST /verify/batch', 'POST /v1/subscribe',
  'GET /emails/:id', 'HEAD /emails/:id', 'GET /api-keys/current', 'HEAD /api-keys/current',
  'POST /resend/emails', 'POST /resend/emails/batch', 'GET /resend/emails/:id', 'HEAD /resend/emails/:id',
  'POST /mcp', 'GET /mcp', 'HEAD /mcp', 'DELETE /mcp',
];

const reading = (path: string) => [`GET ${path}`, `HEAD ${path}`];
const EVERY_METHOD = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE'];

/** Every route anyone may call without a key or token, each reviewed: what it serves and why it needs no key. */
const PUBLIC_ROUTES = [
  // The dashboard: its page and hashed assets (it signs in with a key of its own, sent to the API routes).
  ...reading('/'), ...reading('/*'), ...reading('/assets/*'),
  // The API reference: the OpenAPI document and Swagger UI.
  ...reading('/openapi.json'), ...reading('/docs'), 'HEAD /docs/', ...reading('/docs/json'), ...reading('/docs/yaml'),
  ...reading('/docs/static/*'), ...reading('/docs/static/index.html'), ...reading('/docs/static/swagger-initializer.js'),
  ...reading('/docs/static/theme/favicon.svg'), ...reading('/docs/static/theme/herald.css'),
  // The operator's probes (metrics need the admin token).
  ...reading('/healthz'), ...reading('/readyz'),
  // The links inside mail, each carrying a signed token: open pixel, click, unsubscribe, topic choices, opt-in confirmation.
  ...reading('/t/o/:token'), ...reading('/t/c/:token'),
  ...reading('/unsubscribe/:token'), 'POST /unsubscribe/:token', 'POST /unsubscribe/:token/resubscribe',
  ...reading('/manage/:token'), 'POST /manage/:token', ...reading('/confirm/:token'), 'POST /confirm/:token',
  // Amazon SNS notifications (SES transport only): the SNS signature and topic list are the proof.
  'POST /feedback/ses',
  // Resend's 404 for paths under /resend that are no route.
  ...EVERY_METHOD.flatMap((method) => [`${method} /resend`, `${method} /resend/*`]),
];

describe('route scopes', () => {
  let t: TestApp;
  let keyRoutes: RouteAccess[];

  beforeAll(async () => {
    // With the SES transport, so its feedback route is there too.
    t = await createTestApp({ env: { MAIL_TRANSPORT: 'ses', SES_REGION: 'us-east-1', SES_ENDPOINT: 'http://127.0.0.1:9', SES_SNS_TOPIC_ARNS: 'arn:aws:sns:us-east-1:123456789012:herald-feedback' } });
    keyRoutes = routeAccessOf(t.app).filter((r) => r.auth === 'secret' || r.auth === 'public');
  });
  afterAll(() => t.close());

  const name = (r: RouteAccess) => `${r.method} ${r.url}`;

  it('sees the app\'s routes', () => {
    expect(keyRoutes.length).toBeGreaterThan(80);
    expect(keyRoutes.map(name)).toContain('POST /contacts');
  });

  it('refuses to register a route that does not declare its auth, naming the route', async () => {
    const app = Fastify();
    declareRouteAccess(app);
    void app.register(async (plugin) => {
      plugin.get('/reports', { config: { auth: 'secret' } }, async () => ({}));
      plugin.get('/reports/:id', async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/reports\/:id declares no auth/);
    await app.close();
  });

  it('serves exactly the reviewed routes without a key', () => {
    const open = routeAccessOf(t.app).filter((r) => r.auth === 'none').map(name);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('finds a declared scope on every route that takes a project key', () => {
    expect(keyRoutes.filter((r) => r.scope === undefined).map(name)).toEqual([]);
  });

  it('admits read keys only to GET routes, and to the MCP endpoint (whose tools only read for them)', () => {
    const writes = keyRoutes.filter((r) => admittedScopes(r.scope).includes('read') && r.method !== 'GET' && r.method !== 'HEAD');
    expect(writes.map(name)).toEqual(['POST /mcp', 'DELETE /mcp']);
  });

  it('admits sending keys to the sending routes and nothing else', () => {
    const sending = keyRoutes.filter((r) => admittedScopes(r.scope).includes('sending')).map(name);
    expect(sending.sort()).toEqual([...SENDING_ROUTES].sort());
  });

  it('shows each project-key operation\'s scopes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { 'x-key-scopes'?: string[] }>> };
    expect(doc.paths['/v1/send']!.post!['x-key-scopes']).toEqual(['full', 'sending']);
    expect(doc.paths['/contacts']!.get!['x-key-scopes']).toEqual(['full', 'read']);
    expect(doc.paths['/contacts']!.post!['x-key-scopes']).toEqual(['full']);
    expect(doc.paths['/emails/{id}']!.get!['x-key-scopes']).toEqual(['full', 'read', 'sending']);
  });
});
