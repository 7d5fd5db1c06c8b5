import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Tx } from '../db/client.ts';
import { listenTo, type Listener } from '../db/listen.ts';
import { underQueueSetupLock } from '../db/migrate.ts';
import type { AnyJob, JobDefinition, QueueSettings, WorkContext } from './registry.ts';
import { loggableError } from '../lib/loggable-error.ts';
import { PollerRunner, type AnyPoller } from './poller.ts';
import { fromPglite, fromTransaction, type BossDb } from './adapters.ts';
import { withSettings, type JobSettings } from './job-settings.ts';
import { FetchLoop } from './fetch-loop.ts';

export interface EnqueueOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  tx?: Tx;
  startAfter?: Date | number;
  singletonKey?: string;
  priority?: number;
  id?: string;
}

/** One job of a fan-out: its payload, and settings of its own over the queue's. */
export interface JobInsert<P> extends JobSettings {
  payload: P;
  id?: string;
  priority?: number;
  startAfter?: Date | number;
  singletonKey?: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
}

/** The schema version this pg-boss makes (read at run time: the server bundle leaves pg-boss in node_modules). */
const BOSS_SCHEMA = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }).schema;

/** A commit that adds due jobs notifies this channel; every worker process then fetches at once. */
const WAKE_CHANNEL = 'herald_jobs';
const STOP_TIMEOUT_MS = 10_000;

/** The durable job queue (pg-boss) on Herald's own database. */
export class JobQueue {
  private readonly pollers: PollerRunner;
  private readonly workers: FetchLoop[] = [];
  private listener: Listener | null = null;

  private constructor(
    readonly boss: PgBoss,
    private readonly database: Database,
    private readonly jobs: Map<string, AnyJob>,
    private readonly logger: Logger,
    pollers: AnyPoller[],
  ) {
    this.pollers = new PollerRunner(pollers, logger);
  }

  /** Starts pg-boss on the database (installing its schema) and creates every job's queue. */
  static async start(database: Database, jobs: AnyJob[], logger: Logger, pollers: AnyPoller[] = []): Promise<JobQueue> {
    // Maintenance (every minute, one process at a time) also retries the jobs of a worker that died.
    const common = { schedule: true, supervise: true, maintenanceIntervalSeconds: 60 } as const;
    const boss =
      database.kind === 'pglite'
        ? new PgBoss({ ...common, db: fromPglite(database.pglite!) })
        : new PgBoss({ ...common, connectionString: database.connectionString!, max: 5 });
    boss.on('error', (error) => logger.error({ err: loggableError(error) }, 'job queue error'));
    await refuseNewerSchema(database);
    // Concurrent starts creating the same queues' partitions deadlock each other: they take turns.
    await underQueueSetupLock(database, async () => {
      await boss.start();
      for (const job of jobs) {
        const queue = queueOptions(job.queue);
        await boss.createQueue(job.name, queue);
        await boss.updateQueue(job.name, queue); // a queue made by an earlier version takes today's settings
      }
    });
    return new JobQueue(boss, database, new Map(jobs.map((job) => [job.name, job])), logger, pollers);
  }

  /** Adds one job; with `tx` it commits or rolls back with the caller's writes. */
  async enqueue<P>(
    job: JobDefinition<P, WorkContext>,
    payload: P,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const data = job.schema.parse(payload) as object;
    const db = options.tx ? fromTransaction(options.tx) : this.boss.getDb();
    const id = await this.boss.send(job.name, data, {
      db,
      ...(options.startAfter !== undefined ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {}),
      ...(options.id ? { id: options.id } : {}),
    });
    if (id && options.startAfter === undefined) await wakeWorkers(db, job.name);
    return id;
  }

  /** Adds many jobs in one statement (fan-out), optionally inside a transaction. */
  async enqueueMany<P>(job: JobDefinition<P, WorkContext>, items: JobInsert<P>[], tx?: Tx): Promise<void> {
    if (items.length === 0) return;
    const rows = items.map(({ payload, retryDelayMax, heartbeatSeconds, startAfter, ...options }) => ({
      ...options,
      name: job.name,
      data: withSettings(job.schema.parse(payload) as object, {
        retryDelayMax,
        heartbeatSeconds,
        expireInSeconds: options.expireInSeconds,
      }),
      ...(startAfter === undefined
        ? {}
        : { startAfter: startAfter instanceof Date ? startAfter.toISOString() : String(startAfter) }),
    }));
    const db = tx ? fromTransaction(tx) : this.boss.getDb();
    await this.boss.insert(rows, { db });
    if (items.some((item) => item.startAfter === undefined)) await wakeWorkers(db, job.name);
  }

  /** Runs every registered job (and poller) in this process; each job in a batch settles (and retries) on its own. */
  async startWorkers(ctx: WorkContext): Promise<void> {
    for (const job of this.jobs.values()) {
      const worker = new FetchLoop(this.boss, {
        name: job.name,
        batchSize: Math.max(
          1,
          Math.floor(typeof job.batchSize === 'function' ? job.batchSize(ctx.config) : (job.batchSize ?? 10)),
        ),
        concurrency: job.concurrency ?? 1,
        // Retries and delayed jobs become due without a NOTIFY: a 1 s poll picks them up promptly.
        pollMs: 1000,
        defaults: {
          retryDelayMax: job.queue?.retryDelayMax,
          heartbeatSeconds: job.queue?.heartbeatSeconds,
          expireInSeconds: job.queue?.expireInSeconds,
        },
        run: (item) =>
          job.handler(job.schema.parse(item.payload), ctx, {
            id: item.id,
            retryCount: item.retryCount,
            retryLimit: item.retryLimit,
          }),
        logger: this.logger,
      });
      worker.start();
      this.workers.push(worker);
      if (job.cron) await this.boss.schedule(job.name, job.cron, {});
    }
    this.listener = await listenTo(this.database, WAKE_CHANNEL, () => {
      for (const worker of this.workers) worker.wake();
    });
    await this.pollers.start(ctx);
  }

  /** Stops fetching, lets running jobs finish (bounded), and closes pg-boss's connections. */
  async stop(): Promise<void> {
    await this.pollers.stop();
    await this.listener?.close();
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    await Promise.all(this.workers.splice(0).map((w) => w.stop(deadline)));
    await this.boss.stop({ graceful: true, timeout: STOP_TIMEOUT_MS, close: true });
  }
}

/** pg-boss 10's queue options from a job's queue settings (the ones it has no column for stay with our worker). */
function queueOptions(settings: QueueSettings = {}): PgBoss.Queue {
  const {
    policy = 'standard',
    retryLimit = 3,
    retryDelay = 5,
    retryBackoff = true,
    expireInSeconds,
    retentionSeconds,
  } = settings;
  return {
    name: '',
    policy,
    retryLimit,
    retryDelay,
    retryBackoff,
    ...(expireInSeconds !== undefined ? { expireInSeconds } : {}),
    // pg-boss 10 stores a queue's retention in whole minutes.
    ...(retentionSeconds !== undefined ? { retentionMinutes: Math.ceil(retentionSeconds / 60) } : {}),
  };
}

/** NOTIFY (delivered on commit) that jobs of `name` are due. */
async function wakeWorkers(db: BossDb, name: string): Promise<void> {
  await db.executeSql(`SELECT pg_notify('${WAKE_CHANNEL}', $1)`, [name]);
}

/**
 * pg-boss 10 leaves alone a schema made by a newer pg-boss and then fails on it in obscure ways; a database
 * whose queue tables an earlier Herald (pg-boss 12) made is refused with a way out.
 */
async function refuseNewerSchema(database: Database): Promise<void> {
  const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
  const installed = rowsOf(
    await database.db.execute(sql`SELECT to_regclass('pgboss.version') IS NOT NULL AS installed`),
  )[0]?.installed;
  if (!installed) return;
  const found = Number(
    rowsOf(await database.db.execute(sql`SELECT max(version::text::int) AS version FROM pgboss.version`))[0]?.version,
  );
  if (found > BOSS_SCHEMA) {
    throw new Error(
      `the job queue's tables (schema pgboss, version ${found}) were ` +
        `made by a newer pg-boss than this Herald's (version ${BOSS_SCHEMA}); ` +
        'with no job left waiting, drop them (DROP SCHEMA pgboss CASCADE) and start again',
    );
  }
}
