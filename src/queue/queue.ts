import { PgBoss, fromDrizzle, fromPglite, type DrizzleTransactionLike, type Db as BossDb, type JobInsert, type JobResult, type JobWithMetadata } from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Tx } from '../db/client.ts';
import type { AppContext } from '../context.ts';
import type { AnyJob, JobDefinition } from './registry.ts';
import { loggableError } from '../lib/loggable-error.ts';
import { PollerRunner, type PollerDefinition } from './poller.ts';

export interface EnqueueOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  tx?: Tx;
  startAfter?: Date | number;
  singletonKey?: string;
  priority?: number;
  id?: string;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** pg-boss's view of an open drizzle transaction, so a job commits with the caller's rows. */
function inTx(tx: Tx): BossDb {
  return fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);
}

/** The durable job queue (pg-boss) on Herald's own database. */
export class JobQueue {
  private readonly pollers: PollerRunner;

  private constructor(
    readonly boss: PgBoss,
    private readonly jobs: Map<string, AnyJob>,
    private readonly logger: Logger,
    pollers: PollerDefinition[],
  ) {
    this.pollers = new PollerRunner(pollers, logger);
  }

  /** Starts pg-boss on the database and creates (and caches) every queue before any transactional send. */
  static async start(database: Database, jobs: AnyJob[], logger: Logger, pollers: PollerDefinition[] = []): Promise<JobQueue> {
    const common = { useListenNotify: true, schedule: true, supervise: true } as const;
    const boss = database.kind === 'pglite'
      ? new PgBoss({ ...common, db: fromPglite(database.pglite!), backend: 'pglite' })
      : new PgBoss({ ...common, connectionString: database.connectionString!, max: 5 });
    boss.on('error', (error) => logger.error({ err: loggableError(error) }, 'job queue error'));
    await boss.start();
    for (const job of jobs) {
      await boss.createQueue(job.name, { retryLimit: 3, retryDelay: 5, retryBackoff: true, notify: true, ...job.queue });
      // Loads the queue into pg-boss's cache: a later send inside a PGlite transaction must not
      // need a second connection to look it up (PGlite has only one).
      await boss.findJobs(job.name, { id: NIL_UUID });
    }
    return new JobQueue(boss, new Map(jobs.map((job) => [job.name, job])), logger, pollers);
  }

  /** Adds one job; with `tx` it commits or rolls back with the caller's writes. */
  async enqueue<P>(job: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<string | null> {
    const data = job.schema.parse(payload) as object;
    return this.boss.send(job.name, data, {
      ...(options.tx ? { db: inTx(options.tx) } : {}),
      ...(options.startAfter !== undefined ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {}),
      ...(options.id ? { id: options.id } : {}),
    });
  }

  /** Adds many jobs in one statement (fan-out), optionally inside a transaction. */
  async enqueueMany<P>(job: JobDefinition<P>, payloads: ({ payload: P } & Omit<JobInsert, 'data'>)[], tx?: Tx): Promise<void> {
    if (payloads.length === 0) return;
    const rows = payloads.map(({ payload, ...options }) => ({ ...options, data: job.schema.parse(payload) as object }));
    await this.boss.insert(job.name, rows, tx ? { db: inTx(tx) } : {});
  }

  /** Runs every registered job (and poller) in this process; each job in a batch settles (and retries) on its own. */
  async startWorkers(ctx: AppContext): Promise<void> {
    for (const job of this.jobs.values()) {
      await this.boss.work(job.name, {
        batchSize: typeof job.batchSize === 'function' ? job.batchSize(ctx.config) : (job.batchSize ?? 10),
        perJobResults: true,
        includeMetadata: true,
        pollingIntervalSeconds: 1,
        // Retries and delayed jobs become due without a NOTIFY: a 1 s poll picks them up promptly.
        notifyPollingIntervalSeconds: 1,
        burstWhenBatchFull: true,
        ...(job.concurrency ? { localConcurrency: job.concurrency } : {}),
      }, (batch: JobWithMetadata<unknown>[]) => this.runBatch(job, batch, ctx));
      if (job.cron) await this.boss.schedule(job.name, job.cron, {});
    }
    await this.pollers.start(ctx);
  }

  private async runBatch(job: AnyJob, batch: JobWithMetadata<unknown>[], ctx: AppContext): Promise<JobResult[]> {
    return Promise.all(batch.map(async (item): Promise<JobResult> => {
      try {
        const payload = job.schema.parse(item.data ?? {});
        await job.handler(payload, ctx, { id: item.id, retryCount: item.retryCount, retryLimit: item.retryLimit });
        return { id: item.id, status: 'completed' };
      } catch (error) {
        this.logger.warn({ err: loggableError(error), job: job.name, jobId: item.id, retry: item.retryCount }, 'job failed');
        const message = error instanceof Error ? error.message : String(error);
        return { id: item.id, status: 'failed', output: { message } };
      }
    }));
  }

  /** Stops fetching, lets running jobs finish (bounded), and closes pg-boss's connections. */
  async stop(): Promise<void> {
    await this.pollers.stop();
    await this.boss.stop({ graceful: true, timeout: 10_000, close: true });
  }
}
