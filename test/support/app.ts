/**
 * Builds Herald against a fresh test database: `const t = await createTestApp()`, then
 * `t.app.inject(...)`, `t.createProject()`, and `await t.close()` in afterEach/afterAll.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApp, type BuildAppOptions } from '../../src/app.ts';
import type { AnyJob } from '../../src/queue/registry.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.types.ts';
import { assemble, startBackground } from '../../src/runtime.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const APP_SECRET = 'test-app-secret-0123456789abcdefghijklmnop';

export interface TestAppOptions {
  /** Environment overrides (RATE_LIMIT_PER_MINUTE: '5', …). */
  env?: Record<string, string>;
  /** Run the job workers in this instance too. */
  worker?: boolean;
  /** Reuse a database (a second instance, or a restart); otherwise a fresh one is made and dropped. */
  database?: TestDatabase;
  /** Share an open handle with another instance (two app instances on one PGlite). */
  handle?: Database;
  /** Extra jobs (test probes) next to the real ones. */
  jobs?: AnyJob[];
  /** Extra routes (test probes). */
  register?: BuildAppOptions['register'];
  bodyLimit?: number;
  /** A logger of the test's own (to read what the app logs); silent unless TEST_LOG is set otherwise. */
  logger?: Logger;
  /** Where the built dashboard is looked for (a test of the missing build points elsewhere). */
  dashboardDir?: string;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  testDb: TestDatabase;
  admin: { authorization: string };
  createProject(
    name?: string,
  ): Promise<{ id: string; secretKey: string; publicKey: string; auth: { authorization: string } }>;
  /** Stops this instance; drops the database only if this instance created it. */
  close(): Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-data-'));
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, APP_SECRET, LOG_LEVEL: 'silent', ...options.env });
  const ownsDb = !options.database && !options.handle;
  const testDb = options.database ?? (await createTestDatabase());
  const database = options.handle ?? (await testDb.open());
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG ?? 'silent' });
  const ctx = await assemble({
    config,
    database,
    logger,
    secrets: { adminToken: ADMIN_TOKEN, appSecret: APP_SECRET },
    ...(options.jobs ? { extraJobs: options.jobs } : {}),
  });
  const queue = ctx.queue;
  const workers = options.worker ? await startBackground(ctx) : null;
  const app = await buildApp(ctx, {
    ...(options.register ? { register: options.register } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });
  await app.ready();
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  return {
    app,
    ctx,
    testDb,
    admin,
    async createProject(name = 'Test project') {
      const res = await app.inject({ method: 'POST', url: '/admin/projects', headers: admin, payload: { name } });
      if (res.statusCode !== 201) throw new Error(`createProject failed: ${res.statusCode} ${res.body}`);
      const data = res.json().data as { id: string; secretKey: string; publicKey: string };
      return { ...data, auth: { authorization: `Bearer ${data.secretKey}` } };
    },
    async close() {
      await app.close();
      await workers?.close();
      await queue.stop();
      await ctx.transport.close();
      await ctx.resources.close();
      if (!options.handle) await database.close();
      if (ownsDb) await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
