// Every route declares who may call it (route config `auth`): one that does not is refused when it is registered, and
// the routes anyone may call (`none`) are exactly the reviewed list below, so a newly public route fails here. Every
// route that takes a project key declares which key scopes may call it (`scope`), and every project route the least
// role a signed-in member needs (`role`): viewers only read, and the reads kept from them and the writes admitted
// to editors are the reviewed lists below, so a new route's role is chosen deliberately. The auth plugin enforces
// all three.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admittedScopes } from '../../../src/lib/keys.ts';
import { declareRouteAccess, routeAccessOf, type RouteAccess } from '../../../src/plugins/auth.ts';
import type { Role } from '../../../src/plugins/types.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

/**
 * The routes a `sending` key may call: send, batch, track, verify, subscribe, GET /emails/{id}, and the same through
 * the Resend email routes (send, batch, get by id: not list, reschedule or cancel, which the native API keeps from it).
 */
const SENDING_ROUTES = [
  'POST /v1/send',
  'POST /send',
  'POST /v1/send/batch',
  'POST /v1/track',
  'POST /track',
  'POST /v1/verify',
  'POST /verify',
  'POST /v1/verify/batch',
  'POST /verify/batch',
  'POST /v1/subscribe',
  'GET /emails/:id',
  'HEAD /emails/:id',
  'GET /api-keys/current',
  'HEAD /api-keys/current',
  'POST /resend/emails',
  'POST /resend/emails/batch',
  'GET /resend/emails/:id',
  'HEAD /resend/emails/:id',
  'POST /mcp',
  'GET /mcp',
  'HEAD /mcp',
  'DELETE /mcp',
];

const reading = (path: string) => [`GET ${path}`, `HEAD ${path}`];
const EVERY_METHOD = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE'];

/** Every route anyone may call without a key or token, each reviewed: what it serves and why it needs no key. */
const PUBLIC_ROUTES = [
  // The dashboard: its page and hashed assets (it signs in with a key of its own, sent to the API routes).
  ...reading('/'),
  ...reading('/*'),
  ...reading('/assets/*'),
  // The API reference: the OpenAPI document and Swagger UI.
  ...reading('/openapi.json'),
  ...reading('/docs'),
  'HEAD /docs/',
  ...reading('/docs/json'),
  ...reading('/docs/yaml'),
  ...reading('/docs/static/*'),
  ...reading('/docs/static/index.html'),
  ...reading('/docs/static/swagger-initializer.js'),
  ...reading('/docs/static/theme/favicon.svg'),
  ...reading('/docs/static/theme/herald.css'),
  // The operator's probes (metrics need the admin token).
  ...reading('/healthz'),
  ...reading('/readyz'),
  // The links inside mail, each carrying a signed token: open pixel, click, unsubscribe, topic choices, opt-in
  // confirmation.
  ...reading('/t/o/:token'),
  ...reading('/t/c/:token'),
  ...reading('/unsubscribe/:token'),
  'POST /unsubscribe/:token',
  'POST /unsubscribe/:token/resubscribe',
  ...reading('/manage/:token'),
  'POST /manage/:token',
  ...reading('/confirm/:token'),
  'POST /confirm/:token',
  // An email in a browser: its view-in-browser link and share links.
  ...reading('/v/:token'),
  // Signup forms: their hosted page (anyone may sign up), its page after a submission, the submission itself
  // (honeypot, proof of work and a per-address limit are its guards), proof-of-work challenges, and the files the
  // page and embedded forms load (a stylesheet, the widget).
  ...reading('/f/:id'),
  'POST /f/:id',
  ...reading('/f/:id/done'),
  ...reading('/f/:id/challenge'),
  ...reading('/f-assets/:file'),
  // Signing in: the sign-in options, first-run setup, password sign-in and reset, and invitations (each checks its
  // own secret: the setup link, the password, the reset link, the invitation link).
  ...reading('/auth/options'),
  'POST /auth/setup',
  'POST /auth/sign-in',
  'POST /auth/password-reset',
  'POST /auth/password-reset/confirm',
  'POST /auth/invite-details',
  'POST /auth/accept-invite',
  // Single sign-on: to the identity provider and back (proved by the sealed attempt cookie and the signed ID token).
  ...reading('/auth/oidc/start'),
  ...reading('/auth/oidc/callback'),
  // Amazon SNS notifications (SES transport only): the SNS signature and topic list are the proof.
  'POST /feedback/ses',
  // Resend's download links: the signed, hour-long token in the path is the permission.
  ...reading('/resend/downloads/:token'),
  // Resend's 404 for paths under /resend that are no route.
  ...EVERY_METHOD.flatMap((method) => [`${method} /resend`, `${method} /resend/*`]),
];

/**
 * The GET routes a viewer may not call (every other GET is `viewer`). Editors: the exports of contacts' personal data
 * (all of them as CSV, or everything about one). Admins: the project's key list, the workflow signing secret
 * (with it anyone could sign requests as Herald to the project's endpoints), the transports (the relays and
 * accounts mail leaves through), and the request log (every request's bodies, personal data included).
 */
const EDITOR_READS = [...reading('/contacts/export'), ...reading('/contacts/:id/export')];
const ADMIN_READS = [
  ...reading('/api-keys'),
  ...reading('/workflows/signing-secret'),
  ...reading('/transports'),
  ...reading('/transports/:id'),
  ...reading('/logs'),
  ...reading('/logs/:id'),
  ...reading('/resend/api-keys'),
  ...reading('/resend/logs'),
  ...reading('/resend/logs/:id'),
];

/**
 * The writes an editor may make: the audience (contacts, their imports, bulk actions and topic choices, topics,
 * segments and their members, signup forms), content (templates, their versions, previews and checks, layouts),
 * campaigns (their pre-send checks too), workflows and their executions, sending (and rescheduling or cancelling
 * what is scheduled), tracking, verifying, subscribing, the same through the Resend routes (contacts, their lists and
 * topics, segments, topics, contact properties, broadcasts), and MCP (whose tools act as the caller). Every other
 * write is the project's configuration: `admin` (keys, domains, webhooks, transports and routing, suppressions,
 * settings, received mail, the workflow signing secret) or `owner`.
 */
const EDITOR_WRITES = [
  'POST /contacts',
  'PATCH /contacts/:id',
  'DELETE /contacts/:id',
  'POST /contacts/import',
  'POST /contacts/bulk',
  'PATCH /contacts/:id/topics',
  'POST /topics',
  'PATCH /topics/:id',
  'DELETE /topics/:id',
  'POST /segments',
  'PATCH /segments/:id',
  'DELETE /segments/:id',
  'POST /segments/:id/members',
  'DELETE /segments/:id/members',
  'POST /forms',
  'PATCH /forms/:id',
  'DELETE /forms/:id',
  'POST /templates',
  'PATCH /templates/:id',
  'DELETE /templates/:id',
  'POST /templates/preview',
  'POST /templates/:id/check',
  'POST /templates/:id/publish',
  'POST /templates/:id/versions/:version/restore',
  'POST /layouts',
  'PATCH /layouts/:id',
  'DELETE /layouts/:id',
  'POST /campaigns',
  'PATCH /campaigns/:id',
  'DELETE /campaigns/:id',
  'POST /campaigns/:id/check',
  'POST /campaigns/:id/send',
  'POST /campaigns/:id/cancel',
  'POST /campaigns/:id/pause',
  'POST /campaigns/:id/resume',
  'POST /campaigns/:id/winner',
  'POST /campaigns/:id/follow-up',
  'POST /campaigns/:id/unschedule',
  'POST /campaigns/:id/duplicate',
  'POST /campaigns/:id/test',
  'POST /workflows',
  'PATCH /workflows/:id',
  'DELETE /workflows/:id',
  'POST /workflows/:id/executions',
  'POST /workflows/:id/executions/:executionId/cancel',
  'POST /v1/send',
  'POST /send',
  'POST /v1/send/batch',
  'PATCH /emails/:id',
  'POST /emails/:id/cancel',
  'POST /emails/:id/share',
  'POST /v1/track',
  'POST /track',
  'POST /v1/verify',
  'POST /verify',
  'POST /v1/verify/batch',
  'POST /verify/batch',
  'POST /v1/subscribe',
  'POST /resend/emails',
  'POST /resend/emails/batch',
  'PATCH /resend/emails/:id',
  'POST /resend/emails/:id/cancel',
  'POST /resend/contacts',
  'PATCH /resend/contacts/:id',
  'DELETE /resend/contacts/:id',
  'POST /resend/audiences/:audienceId/contacts',
  'PATCH /resend/audiences/:audienceId/contacts/:id',
  'DELETE /resend/audiences/:audienceId/contacts/:id',
  'POST /resend/contacts/:id/segments/:segmentId',
  'DELETE /resend/contacts/:id/segments/:segmentId',
  'PATCH /resend/contacts/:id/topics',
  'POST /resend/segments',
  'PATCH /resend/segments/:id',
  'DELETE /resend/segments/:id',
  'POST /resend/topics',
  'PATCH /resend/topics/:id',
  'DELETE /resend/topics/:id',
  'POST /resend/contact-properties',
  'PATCH /resend/contact-properties/:id',
  'DELETE /resend/contact-properties/:id',
  'POST /resend/broadcasts',
  'PATCH /resend/broadcasts/:id',
  'DELETE /resend/broadcasts/:id',
  'POST /resend/broadcasts/:id/send',
  'POST /resend/broadcasts/:id/cancel',
  'POST /resend/broadcasts/:id/duplicate',
  'POST /resend/templates',
  'PATCH /resend/templates/:id',
  'DELETE /resend/templates/:id',
  'POST /resend/templates/:id/publish',
  'POST /resend/templates/:id/duplicate',
  'POST /mcp',
  'DELETE /mcp',
];

/** Routes whose roles are reviewed with their own modules (people, the team, the audit log). */
const reviewedElsewhere = (r: RouteAccess) => /^\/(auth|team|audit-log)(\/|$)/.test(r.url);
const reads = (r: RouteAccess) => r.method === 'GET' || r.method === 'HEAD';

describe('route scopes', () => {
  let t: TestApp;
  let keyRoutes: RouteAccess[];
  /** The routes a signed-in member may call in a project, each with its least role. */
  let projectRoutes: RouteAccess[];

  beforeAll(async () => {
    // With the SES transport, so its feedback route is there too.
    t = await createTestApp({
      env: {
        MAIL_TRANSPORT: 'ses',
        SES_REGION: 'us-east-1',
        SES_ENDPOINT: 'http://127.0.0.1:9',
        SES_SNS_TOPIC_ARNS: 'arn:aws:sns:us-east-1:123456789012:herald-feedback',
      },
    });
    keyRoutes = routeAccessOf(t.app).filter((r) => r.auth === 'secret' || r.auth === 'public');
    projectRoutes = routeAccessOf(t.app).filter((r) => ['secret', 'public', 'member'].includes(r.auth));
  });
  afterAll(() => t.close());

  const name = (r: RouteAccess) => `${r.method} ${r.url}`;

  it("sees the app's routes", () => {
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
    const open = routeAccessOf(t.app)
      .filter((r) => r.auth === 'none')
      .map(name);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('finds a declared scope on every route that takes a project key', () => {
    expect(keyRoutes.filter((r) => r.scope === undefined).map(name)).toEqual([]);
  });

  it('admits read keys only to GET routes, and to the MCP endpoint (whose tools only read for them)', () => {
    const writes = keyRoutes.filter(
      (r) => admittedScopes(r.scope).includes('read') && r.method !== 'GET' && r.method !== 'HEAD',
    );
    expect(writes.map(name)).toEqual(['POST /mcp', 'DELETE /mcp']);
  });

  it('admits sending keys to the sending routes and nothing else', () => {
    const sending = keyRoutes.filter((r) => admittedScopes(r.scope).includes('sending')).map(name);
    expect(sending.sort()).toEqual([...SENDING_ROUTES].sort());
  });

  it('finds a declared role on every project route', () => {
    expect(projectRoutes.filter((r) => r.role === undefined).map(name)).toEqual([]);
  });

  it('admits viewers to GET routes only', () => {
    // A member's own membership (any member may leave a project) is the team module's rule, reviewed with it.
    const writes = projectRoutes.filter((r) => r.role === 'viewer' && !reads(r) && !reviewedElsewhere(r));
    expect(writes.map(name)).toEqual([]);
  });

  it('keeps from viewers exactly the reviewed GET routes, each for its reviewed role', () => {
    const guarded = projectRoutes.filter((r) => reads(r) && r.role !== 'viewer' && !reviewedElsewhere(r));
    expect(guarded.map(name).sort()).toEqual([...EDITOR_READS, ...ADMIN_READS].sort());
    const roleOf = (route: string) => guarded.find((r) => name(r) === route)?.role;
    expect(EDITOR_READS.filter((route) => roleOf(route) !== 'editor')).toEqual([]);
    expect(ADMIN_READS.filter((route) => roleOf(route) !== 'admin')).toEqual([]);
  });

  it('admits editors to exactly the reviewed writes, and leaves every other write to admins or owners', () => {
    const writes = projectRoutes.filter((r) => !reads(r) && !reviewedElsewhere(r));
    expect(
      writes
        .filter((r) => r.role === 'editor')
        .map(name)
        .sort(),
    ).toEqual([...EDITOR_WRITES].sort());
    const others: (Role | undefined)[] = ['admin', 'owner'];
    expect(writes.filter((r) => r.role !== 'editor' && !others.includes(r.role)).map(name)).toEqual([]);
  });

  it('keeps the transports from read keys: reads need a full key', () => {
    const transports = keyRoutes.filter((r) => r.url.startsWith('/transports'));
    expect(transports.length).toBeGreaterThanOrEqual(6);
    expect(transports.filter((r) => admittedScopes(r.scope).some((s) => s !== 'full')).map(name)).toEqual([]);
  });

  it("shows each project-key operation's scopes in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { 'x-key-scopes'?: string[] }>>;
    };
    expect(doc.paths['/v1/send']!.post!['x-key-scopes']).toEqual(['full', 'sending']);
    expect(doc.paths['/contacts']!.get!['x-key-scopes']).toEqual(['full', 'read']);
    expect(doc.paths['/contacts']!.post!['x-key-scopes']).toEqual(['full']);
    expect(doc.paths['/emails/{id}']!.get!['x-key-scopes']).toEqual(['full', 'read', 'sending']);
  });
});
