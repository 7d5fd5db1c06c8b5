import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { fileURLToPath } from 'node:url';
import type { AppContext } from './context.types.ts';
import { DEFAULT_BODY_LIMIT } from './lib/http.ts';
import { newRequestId } from './lib/ids.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { declareRouteAccess, KeyCache, registerAuth } from './plugins/auth.ts';
import { registerAuditTrail } from './plugins/audit-trail.ts';
import { registerCors } from './plugins/cors.ts';
import { registerDashboard } from './plugins/dashboard.ts';
import { onClientError, onFrameworkError, registerErrorHandler } from './plugins/error-handler.ts';
import { registerTestFaults } from './plugins/test-faults.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import './plugins/types.ts';
import { modules } from './modules.ts';
import { findKeyByHash } from './modules/projects/index.ts';
import { findSession, memberProjectAccess } from './modules/accounts/index.ts';
import { recordAudit } from './modules/audit/index.ts';
import { backupRoutes } from './backup/routes.ts';
import { doctorRoutes } from './doctor/routes.ts';

export interface BuildAppOptions {
  /** Largest accepted JSON body (bytes) of routes without a limit of their own; 1 MB unless told. */
  bodyLimit?: number;
  /** Extra routes registered after the modules (tests add probe routes here). */
  register?: (app: FastifyInstance) => Promise<void> | void;
  /** The built dashboard (index.html and assets/); web/dist of the package unless told. */
  dashboardDir?: string;
}

const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

/**
 * Builds the HTTP app on a context: plugins first, then every module's routes (src/modules.ts order). Tests build it
 * too.
 */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // 1 MB for every JSON body; routes that take attachments or uploads set their own.
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    genReqId: newRequestId,
    requestIdHeader: false,
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: ctx.config.trustProxy,
    // A request must arrive whole within 2 minutes (20 MB on a slow link), so slow clients cannot hold sockets.
    requestTimeout: 120_000,
    // Signed link tokens (unsubscribe, click) are path parameters longer than the default 100 characters.
    routerOptions: { maxParamLength: 2048 },
    // Errors fastify and Node's HTTP parser raise before routing leave in the contract's envelope too.
    frameworkErrors: onFrameworkError,
    clientErrorHandler: onClientError,
    // The error handler answers requests that arrive while closing with a 503 in the envelope.
    return503OnClosing: false,
  });
  // Fastify parses text/plain by default; the API takes JSON only (415 otherwise).
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerSecurityHeaders(app);
  registerErrorHandler(app);
  registerInputGuard(app);
  // Before any route: each must declare who may call it (config.auth), or registering it fails.
  declareRouteAccess(app);
  // Before every API route: the dashboard's catch-all learns their paths as they are registered.
  await registerDashboard(app, { root: options.dashboardDir ?? DEFAULT_DASHBOARD_DIR });
  await registerOpenApi(app, { publicUrl: ctx.config.publicUrlConfigured ? ctx.config.publicUrl : null });

  registerCors(app);
  const keyCache = new KeyCache((keyHash) => findKeyByHash({ db: ctx.db, keyHash }));
  registerAuth(app, ctx, keyCache, {
    findSession: (token) => findSession(ctx, token),
    projectAccess: (projectId, userId) => memberProjectAccess(ctx.db, projectId, userId),
  });
  registerAuditTrail(app, (entry) => recordAudit(ctx.db, entry));
  registerRateLimit(app, ctx, new RateLimiter(ctx.db));
  registerIdempotency(app, ctx);
  registerTestFaults(app, ctx.config.testFault);

  for (const module of modules) for (const hook of module.hooks ?? []) hook(ctx, app);

  const host = { clearKeyCache: () => keyCache.clear() };
  for (const module of modules) {
    for (const routes of module.routes ?? []) await app.register(routes(ctx, host));
  }
  await app.register(backupRoutes(ctx));
  await app.register(doctorRoutes(ctx));
  if (options.register) await options.register(app);
  return app;
}
