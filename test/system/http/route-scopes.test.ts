// Every route that takes a project key declares which key scopes may call it (route config `scope`), so a new route
// cannot leave the decision to chance: one without a declaration fails here. The auth plugin enforces what is declared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admittedScopes } from '../../../src/lib/keys.ts';
import { routeAccessOf, type RouteAccess } from '../../../src/plugins/auth.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

/** The routes a `sending` key may call (CONTRACT: send, batch, track, verify, subscribe, GET /emails/{id}, Resend email routes). */
const SENDING_ROUTES = [
  'POST /v1/send', 'POST /send', 'POST /v1/send/batch', 'POST /v1/track', 'POST /track',
  'POST /v1/verify', 'POST /verify', 'POST /v1/verify/batch', 'POST /verify/batch', 'POST /v1/subscribe',
  'GET /emails/:id', 'HEAD /emails/:id', 'GET /api-keys/current', 'HEAD /api-keys/current',
  'POST /resend/emails', 'POST /resend/emails/batch', 'PATCH /resend/emails/:id', 'POST /resend/emails/:id/cancel',
  'GET /resend/emails', 'HEAD /resend/emails', 'GET /resend/emails/:id', 'HEAD /resend/emails/:id',
  'POST /mcp', 'GET /mcp', 'HEAD /mcp', 'DELETE /mcp',
];

describe('route scopes', () => {
  let t: TestApp;
  let keyRoutes: RouteAccess[];

  beforeAll(async () => {
    t = await createTestApp();
    keyRoutes = routeAccessOf(t.app).filter((r) => r.auth === 'secret' || r.auth === 'public');
  });
  afterAll(() => t.close());

  const name = (r: RouteAccess) => `${r.method} ${r.url}`;

  it('sees the app\'s routes', () => {
    expect(keyRoutes.length).toBeGreaterThan(80);
    expect(keyRoutes.map(name)).toContain('POST /contacts');
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
    // /v1/subscribe arrives with the audience work; every other sending route must be here already.
    expect(new Set(sending)).toEqual(new Set(SENDING_ROUTES.filter((r) => r !== 'POST /v1/subscribe' || sending.includes(r))));
  });

  it('shows each project-key operation\'s scopes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { 'x-key-scopes'?: string[] }>> };
    expect(doc.paths['/v1/send']!.post!['x-key-scopes']).toEqual(['full', 'sending']);
    expect(doc.paths['/contacts']!.get!['x-key-scopes']).toEqual(['full', 'read']);
    expect(doc.paths['/contacts']!.post!['x-key-scopes']).toEqual(['full']);
    expect(doc.paths['/emails/{id}']!.get!['x-key-scopes']).toEqual(['full', 'read', 'sending']);
  });
});
