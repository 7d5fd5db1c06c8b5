import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { FAVICON_SVG, LOGO_SVG } from '../lib/brand.ts';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorEnvelope } from '../lib/http.ts';
import { admittedScopes, type KeyScope } from '../lib/keys.ts';
import { registerPublicPlugin } from './auth.ts';

/** What each status means, as the response description of every operation that documents it. */
const STATUS_TEXT: Record<string, string> = {
  200: 'Success',
  201: 'Created',
  202: 'Accepted, with an empty body',
  302: 'Redirect (Location header)',
  400: 'Malformed JSON, body or header (BAD_REQUEST)',
  401: 'Missing, malformed, unknown or revoked key or token (UNAUTHORIZED)',
  403: 'A public key on a secret-key endpoint (FORBIDDEN), or the project is disabled (PROJECT_DISABLED)',
  404: 'No such resource in this project (NOT_FOUND)',
  409:
    'A conflict with the current state, the same Idempotency-Key still in progress, or a send whose pre-send ' +
    'check found errors (CONFLICT, IDEMPOTENCY_KEY_IN_PROGRESS, CHECK_FAILED)',
  413: 'Request body too large (PAYLOAD_TOO_LARGE)',
  414: 'A path segment too long (URI_TOO_LONG)',
  415: 'Unsupported Content-Type (UNSUPPORTED_MEDIA_TYPE)',
  422:
    'Invalid input, field by field in error.errors (VALIDATION_ERROR), or an ' +
    'Idempotency-Key reused with another body',
  429: 'Rate limit exceeded (RATE_LIMIT_EXCEEDED); see Retry-After',
  500: 'Internal error (INTERNAL_ERROR); no internals in the message',
  503: 'The database is unavailable or the server is shutting down (SERVICE_UNAVAILABLE); see Retry-After',
};

interface RouteFacts {
  method: string;
  auth: string;
  links: boolean;
  hasParams: boolean;
}

/** Who may call a route: project keys and signed-in members, the admin token and instance admins, or people only. */
function securityOf(auth: string): Record<string, string[]>[] {
  if (auth === 'admin') return [{ adminToken: [] }, { session: [] }];
  if (auth === 'secret' || auth === 'public') return [{ apiKey: [] }, { session: [] }];
  if (auth === 'member' || auth === 'session') return [{ session: [] }];
  return [];
}

/**
 * The error statuses the plugins give a route, from its config: every route can answer 400 (a malformed
 * URL or header), 422 (the input guard), 500 and 503; routes that take a body 413 and 415; routes with
 * path parameters 414; authenticated ones 401 and 403 (a role, a scope, a CSRF check); project ones 404 (a project
 * the signed-in person is not a member of) and 429, their POSTs 409 (a running Idempotency-Key); the links in mail 429.
 */
function pluginStatuses(route: RouteFacts): number[] {
  const statuses = [400, 422, 500, 503];
  if (route.method !== 'GET' && route.method !== 'HEAD') statuses.push(413, 415);
  if (route.hasParams) statuses.push(414);
  if (route.auth !== 'none') statuses.push(401, 403);
  const project = route.auth === 'secret' || route.auth === 'public' || route.auth === 'member';
  if (project) statuses.push(404);
  if (project || route.links) statuses.push(429);
  if (project && route.method === 'POST') statuses.push(409);
  return statuses;
}

type ResponseMap = Record<string, Record<string, unknown>>;

/** Adds the plugins' statuses and a description to every response of one operation. */
function completeResponses(
  responses: ResponseMap,
  route: RouteFacts,
  errorSchema: Record<string, unknown>,
): ResponseMap {
  const out: ResponseMap = { ...responses };
  for (const status of pluginStatuses(route)) out[status] ??= { ...errorSchema };
  for (const [status, schema] of Object.entries(out)) {
    if (schema['x-response-description'] || schema.description) continue;
    // `description` (not x-response-description): swagger reads it even beside a $ref to the Error schema.
    out[status] = { ...schema, description: STATUS_TEXT[status] ?? `HTTP ${status}` };
  }
  return out;
}

const OPTIONAL_BODY = 'x-body-optional';

type Doc = {
  paths?: Record<
    string,
    Record<
      string,
      {
        tags?: string[];
        requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
      }
    >
  >;
  components?: { schemas?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
};

/** A body schema that also accepts no body at all (`.optional()`): its requestBody is then not required. */
function markOptionalBody(body: unknown, jsonBody: unknown): unknown {
  const accepts = (body as { safeParse?: (v: unknown) => { success: boolean } } | undefined)?.safeParse?.(
    undefined,
  ).success;
  return accepts && jsonBody && typeof jsonBody === 'object' ? { ...jsonBody, [OPTIONAL_BODY]: true } : jsonBody;
}

/** Every `#/components/schemas/X` referenced from `value`. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    const ref = (v as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
      into.add(ref.slice('#/components/schemas/'.length));
    stack.push(...Object.values(v));
  }
  return into;
}

/**
 * The finished document: components of the zod registry, requestBody.required false where the body may be
 * left out, and only the component schemas something refers to (the registry holds an input and an output
 * copy of each, and most are only ever used one way).
 */
/**
 * The order of the reference's sections: the public API a sender calls first (send, track, verify), then the
 * resources, and the operator's Health and Admin last. A tag not listed here goes before Feedback.
 */
const TAG_ORDER = [
  'Public',
  'Emails',
  'Contacts',
  'Events',
  'Templates',
  'Campaigns',
  'Segments',
  'Topics',
  'Workflows',
  'Domains',
  'Webhooks',
  'Suppressions',
  'Keys',
  'Settings',
  'Links in mail',
  '*',
  'Resend',
  'Feedback',
  'Health',
  'Admin',
];
const TAG_DESCRIPTIONS: Record<string, string> = {
  Public: 'Send email, track events and verify addresses: the calls an application makes.',
  Emails: 'Every email sent, its status, events and source; batch sends and daily statistics.',
  Contacts: 'The people you write to, their data, subscription and CSV imports.',
  Events: 'What contacts did, as tracked events.',
  Templates: 'Reusable subjects and bodies, rendered with Liquid.',
  Campaigns: 'Marketing sends to an audience, with scheduling and statistics.',
  Segments: 'Saved filters over contacts, and lists whose members are added by hand.',
  Topics: "Subjects contacts choose to hear about, and each contact's choices.",
  Workflows: 'Automations triggered by events, with their executions.',
  Domains: 'Sender domains and the DNS records that verify them.',
  Webhooks: 'Endpoints that receive email and contact events, and their deliveries.',
  Suppressions: 'Addresses no mail is sent to.',
  Keys: "The project's API keys: scopes, sender domains, expiry; and the key making the request.",
  Settings: "The project's name, time zone, tracking mode, double opt-in and reputation thresholds.",
  'Links in mail': 'Open pixels, click redirects and unsubscribe pages, reached from the mail itself.',
  Resend:
    "Resend's REST API under /resend, for code written for Resend: errors in Resend's shape `{statusCode, name, " +
    'message}`.',
  Feedback: 'Bounce and complaint reports from mail providers.',
  Health: 'Liveness, readiness and metrics, for the operator.',
  Admin: 'Projects and their keys, with the ADMIN_TOKEN.',
};

/** The document's tags in TAG_ORDER (Swagger UI shows its sections in this order). */
function orderedTags(doc: Doc): { name: string; description?: string }[] {
  const used = new Set<string>();
  for (const operations of Object.values(doc.paths ?? {}))
    for (const operation of Object.values(operations)) for (const tag of operation.tags ?? []) used.add(tag);
  const rank = (tag: string) => (TAG_ORDER.includes(tag) ? TAG_ORDER.indexOf(tag) : TAG_ORDER.indexOf('*'));
  return [...used]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `${name} operations.` }));
}

function finishDocument(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const doc = jsonSchemaTransformObject(input) as Doc;
  doc.tags = orderedTags(doc);
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const content = operation.requestBody?.content ?? {};
      const optional = Object.values(content).some((media) => media.schema?.[OPTIONAL_BODY]);
      for (const media of Object.values(content)) delete media.schema?.[OPTIONAL_BODY];
      if (optional) operation.requestBody!.required = false;
    }
  }
  const schemas = doc.components?.schemas ?? {};
  const used = refsIn(doc.paths, new Set());
  for (let grew = true; grew; ) {
    const before = used.size;
    for (const name of [...used]) refsIn(schemas[name], used);
    grew = used.size > before;
  }
  // In the order of their names, not of the registry (which depends on which schema a process happened to use first),
  // so the same server always gives the same document.
  if (doc.components)
    doc.components.schemas = Object.fromEntries(
      Object.keys(schemas)
        .filter((name) => used.has(name))
        .sort()
        .map((name) => [name, schemas[name]]),
    );
  return doc;
}

/** Herald's colours on Swagger UI's top bar. */
const DOCS_CSS =
  '.swagger-ui .topbar{background:#1c2333}.swagger-ui .topbar .download-url-wrapper ' +
  '.download-url-button{background:#2450d6}';

/** Where Swagger UI is served. */
export const DOCS_PATH = '/docs';

export interface OpenApiOptions {
  /** PUBLIC_URL when it was set: the one server the document names; otherwise the server it is read from. */
  publicUrl: string | null;
}

/** OpenAPI 3.1 from the same zod schemas that validate requests: /openapi.json and /docs. */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  let errorSchema: Record<string, unknown> | null = null;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '1.0.0',
        description:
          'Transactional email, event tracking, contacts, campaigns and more. Every error answers the `Error` ' +
          'envelope.',
      },
      // A relative URL (the host that served the document) unless PUBLIC_URL names the public one.
      servers: [
        options.publicUrl
          ? { url: options.publicUrl, description: 'PUBLIC_URL' }
          : { url: '/', description: 'The server that serves this document' },
      ],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Project key: sk_… (secret) or pk_… (public: /v1/track and /v1/subscribe only)',
          },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'herald_session',
            description:
              'A signed-in person (POST /auth/sign-in). Project routes also take `Herald-Project: <projectId>`; ' +
              'POST, PUT, PATCH and DELETE take `X-CSRF-Token`.',
          },
        },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // A route without a schema (test probes) is still documented, with the plugins' statuses.
      const result = { ...transformed, schema: transformed.schema ?? {} };
      if (result.schema.hide) return result;
      const config = (input.route.config ?? {}) as {
        auth?: string;
        rateLimit?: string;
        scope?: KeyScope | KeyScope[];
        role?: string;
      };
      const auth = config.auth ?? 'none';
      const security = securityOf(auth);
      const methods = Array.isArray(input.route.method) ? input.route.method : [input.route.method];
      errorSchema ??= (
        jsonSchemaTransform({ ...input, schema: { response: { 400: errorEnvelope } } }).schema.response as Record<
          number,
          Record<string, unknown>
        >
      )[400]!;
      const route: RouteFacts = {
        method: methods[0]!,
        auth,
        links: config.rateLimit === 'links' || config.rateLimit === 'forms',
        hasParams: input.url.includes(':'),
      };
      const response = completeResponses((result.schema.response ?? {}) as ResponseMap, route, errorSchema);
      const body = markOptionalBody(input.schema?.body, result.schema.body);
      // Which key scopes may call a project-key route, so a reader can pick the narrowest key that works.
      const scopes = {
        ...(auth === 'secret' || auth === 'public' ? { 'x-key-scopes': admittedScopes(config.scope) } : {}),
        // And which role a signed-in member needs.
        ...(config.role ? { 'x-member-role': config.role } : {}),
      };
      return { ...result, schema: { ...result.schema, security, response, ...scopes, ...(body ? { body } : {}) } };
    },
    transformObject: finishDocument,
  });
  await registerPublicPlugin(app, swaggerUi, {
    routePrefix: DOCS_PATH,
    theme: {
      title: 'Herald API reference',
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON_SVG }],
      css: [{ filename: 'herald.css', content: DOCS_CSS }],
    },
    logo: { type: 'image/svg+xml', content: LOGO_SVG, href: DOCS_PATH, target: '_self' },
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
}
