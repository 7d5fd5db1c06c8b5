import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createContext, type CreateContextOptions } from './context.ts';
import type { AppContext, Blocker, Erasure, Holds, MailboxPlan, References, RunningServer } from './context.types.ts';
import { startSmtpListener } from './net/smtp-listener.ts';
import { modules } from './modules.ts';
import { setTimelineRecording } from './modules/emails/index.ts';
import { setConsentFollowUps } from './modules/contacts/index.ts';
import type { AnyJob } from './queue/registry.ts';
import { buildApp } from './app.ts';
import { openDatabase, type Database } from './db/client.ts';
import { lockDataDir } from './db/lock.ts';
import { createLogger } from './lib/logger.ts';
import { migrateDatabase } from './db/migrate.ts';
import { loadSecrets } from './secrets.ts';
import { announceServer, localUrl } from './server-file.ts';
import { ensureDefaultProject } from './modules/projects/index.ts';
import { ensureSetupToken, systemSenderProblem } from './modules/accounts/index.ts';
import { addLocalSenderDomain } from './modules/domains/index.ts';

export type Role = 'serve' | 'api' | 'worker' | 'tool';

export interface Runtime {
  ctx: AppContext;
  app: FastifyInstance | null;
  /** Keys of the Default project when this start created it (print once). */
  bootstrap: Awaited<ReturnType<typeof ensureDefaultProject>>;
  /**
   * The first user's setup link secret, made on this start (shown once); null when there is a user or a link already.
   */
  setupToken: string | null;
  generatedAdminToken: string | null;
  /** The SMTP listeners this process started (relay, inbound, feedback), for the start banner. */
  listeners: NonNullable<RunningServer['listening']>[];
  close(): Promise<void>;
}

/**
 * The one way to build a process's context (the runtime, the tests and the benches): every module's jobs and
 * pollers from src/modules.ts, plus `extraJobs` (test probes).
 */
export function assemble(
  opts: Omit<CreateContextOptions, 'jobs' | 'pollers' | 'references' | 'erasure' | 'holds'> & { extraJobs?: AnyJob[] },
): Promise<AppContext> {
  const { extraJobs, ...rest } = opts;
  setTimelineRecording(rest.config.emailTimeline);
  setConsentFollowUps(modules.flatMap((m) => m.consentRecorded ?? []));
  return createContext({
    ...rest,
    ...moduleWork(extraJobs),
    references: moduleReferences(),
    erasure: moduleErasure(),
    holds: moduleHolds(),
  });
}

/** The modules' erasures of deleted contacts, each in the deleting transaction. */
function moduleErasure(): Erasure {
  return {
    async eraseContacts(opts) {
      for (const erase of modules.flatMap((m) => m.contactErasure ?? [])) await erase(opts);
    },
  };
}

/** The modules' releases of held work, each in the transaction of the change that lifted the hold. */
function moduleHolds(): Holds {
  return {
    async release(opts) {
      for (const release of modules.flatMap((m) => m.releaseHolds ?? [])) await release(opts);
    },
  };
}

/** The answer of the first check (in src/modules.ts order) that objects, or null. */
async function firstBlocker<O>(checks: ((opts: O) => Promise<Blocker | null>)[], opts: O): Promise<Blocker | null> {
  for (const check of checks) {
    const blocker = await check(opts);
    if (blocker) return blocker;
  }
  return null;
}

/** The modules' reference checks: a resource may be deleted (a template changed) when none of them objects. */
function moduleReferences(): References {
  return {
    blockerOf: (kind, opts) =>
      firstBlocker(
        modules.flatMap((m) => m.references?.[kind] ?? []),
        opts,
      ),
    templateChangeBlocker: (opts) =>
      firstBlocker(
        modules.flatMap((m) => m.templateChange ?? []),
        opts,
      ),
    layoutChanged: async (opts) => {
      for (const change of modules.flatMap((m) => m.layoutChange ?? [])) await change(opts);
    },
  };
}

/** Every module's jobs (and `extraJobs`) and pollers, from src/modules.ts. */
export function moduleWork(extraJobs: AnyJob[] = []): Pick<CreateContextOptions, 'jobs' | 'pollers'> {
  return {
    jobs: [...modules.flatMap((m) => m.jobs ?? []), ...extraJobs],
    pollers: modules.flatMap((m) => m.pollers ?? []),
  };
}

/**
 * The background side of a process (roles `serve` and `worker`): the queue's jobs and pollers, and the modules'
 * servers.
 */
export interface Background {
  /** The modules' listeners that started (those whose configuration leaves them off are absent). */
  servers: RunningServer[];
  close(): Promise<void>;
}

/** The modules' mailboxes grouped by port, in src/modules.ts order: one SMTP listener per port. */
function mailboxesByPort(ctx: AppContext): MailboxPlan[][] {
  const byPort = new Map<number, MailboxPlan[]>();
  for (const plan of modules.flatMap((m) => m.mailboxes ?? []).map((plan) => plan(ctx))) {
    if (plan) byPort.set(plan.port, [...(byPort.get(plan.port) ?? []), plan]);
  }
  return [...byPort.values()];
}

/** Starts the job fetch loops and pollers, each module's servers, and one SMTP listener per mailbox port. */
export async function startBackground(ctx: AppContext): Promise<Background> {
  await ctx.queue.startWorkers(ctx);
  const servers: RunningServer[] = [];
  for (const start of modules.flatMap((m) => m.servers ?? [])) {
    const server = await start(ctx);
    if (server) servers.push(server);
  }
  for (const plans of mailboxesByPort(ctx)) {
    const first = plans[0]!;
    const names = plans.map((p) => p.mailbox.name);
    const listener = await startSmtpListener({
      name: `herald-smtp-${names.join('-')}`,
      host: first.host,
      port: first.port,
      maxClients: first.maxClients,
      maxClientsPerAddress: first.maxClientsPerAddress,
      logger: ctx.logger,
      mailboxes: plans.map((p) => p.mailbox),
    });
    const listening = names.includes('inbound')
      ? { label: 'Inbound', note: 'mail to the receiving domains (their MX record points here)' }
      : { label: 'Feedback', note: 'bounces and complaints' };
    servers.push({ ...listener, listening: { ...listening, host: first.host, port: listener.port } });
  }
  return {
    servers,
    async close() {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/** Opens the database (locking an embedded one), migrates it, and returns it with its unlock. */
export async function openStorage(config: Readonly<Config>): Promise<{ database: Database; release: () => void }> {
  const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'db'),
    });
    await migrateDatabase(database);
    return { database, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** Starts Herald in a role: `serve` = API + worker in one process, `api`, `worker`, or `tool` (CLI commands). */
export async function startRuntime(config: Readonly<Config>, role: Role, logger?: Logger): Promise<Runtime> {
  const log = logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const secrets = loadSecrets(config);
  const { database, release } = await openStorage(config);
  let ctx: AppContext | null = null;
  let app: FastifyInstance | null = null;
  let background: Background | null = null;
  let unannounce = () => {};
  const close = async () => {
    unannounce();
    await app?.close();
    await background?.close();
    await ctx?.queue.stop();
    await ctx?.transport.close();
    await ctx?.resources.close();
    await database.close();
    release();
  };
  try {
    ctx = await assemble({ config, database, logger: log, secrets });
    const context = ctx;
    const bootstrap =
      role === 'tool'
        ? null
        : await ensureDefaultProject({
            db: ctx.db,
            setup: (tx, projectId) => addLocalSenderDomain({ ctx: context, projectId, tx }),
          });
    // While nobody can sign in, the first start of a server prints a link that makes the first user.
    const setupToken = role === 'tool' ? null : await ensureSetupToken(ctx.db);
    if (role !== 'tool') {
      const problem = await systemSenderProblem(ctx);
      if (problem) log.warn(`Herald cannot send its own mail: ${problem}`);
    }
    if (role === 'serve' || role === 'worker') background = await startBackground(ctx);
    if (role === 'serve' || role === 'api') {
      app = await buildApp(ctx);
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      if (!config.databaseUrl && address && typeof address === 'object') {
        unannounce = announceServer(config.dataDir, { pid: process.pid, url: localUrl(config.host, address.port) });
      }
    }
    return {
      ctx,
      app,
      bootstrap,
      setupToken,
      generatedAdminToken: secrets.generatedAdminToken ? secrets.adminToken : null,
      listeners: (background?.servers ?? []).flatMap((server) => (server.listening ? [server.listening] : [])),
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
