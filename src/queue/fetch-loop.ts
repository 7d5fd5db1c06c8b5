// The fetch loops of one queue. pg-boss 10 stores, fetches and settles jobs; the loop around it is ours, so that
// each job of a batch settles (and retries) on its own, several loops can share a queue, a NOTIFY wakes an idle
// loop at once, a long job can prove it is alive (heartbeat) and a retry's back-off has a ceiling.
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { loggableError } from '../lib/loggable-error.ts';
import { jobSettings, type JobSettings, type RunSettings } from './job-settings.ts';

/** A fetched job as the handler sees it: payload without our settings, and its attempt. */
export interface RunnableJob {
  id: string;
  payload: unknown;
  retryCount: number;
  retryLimit: number;
}

export interface FetchLoopOptions {
  name: string;
  batchSize: number;
  /** Fetch loops, each with its own batch. */
  concurrency: number;
  /** Pause after a fetch that did not fill a batch (retries and delayed jobs become due without a NOTIFY). */
  pollMs: number;
  /** The queue's settings, under each job's own. */
  defaults: JobSettings;
  run(job: RunnableJob): Promise<void>;
  logger: Logger;
}

interface Loop {
  done: Promise<void>;
  /** Ends the pause between fetches early. */
  wake: (() => void) | null;
  /** Woken while busy: fetch again at once. */
  again: boolean;
  /** Ids of the batch in hand. */
  inFlight: string[];
}

export class FetchLoop {
  private stopping = false;
  private readonly loops: Loop[] = [];

  constructor(
    private readonly boss: PgBoss,
    private readonly options: FetchLoopOptions,
  ) {}

  start(): void {
    for (let i = 0; i < Math.max(1, this.options.concurrency); i++) {
      const loop: Loop = { done: Promise.resolve(), wake: null, again: false, inFlight: [] };
      loop.done = this.loop(loop);
      this.loops.push(loop);
    }
  }

  /** New jobs are waiting: idle loops fetch now, busy ones right after their batch. */
  wake(): void {
    for (const loop of this.loops) {
      if (loop.wake) loop.wake();
      else loop.again = true;
    }
  }

  /**
   * Stops fetching and waits for the batches in hand; past `deadline` (ms since the epoch) they fail, to be retried.
   */
  async stop(deadline: number): Promise<void> {
    this.stopping = true;
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
    });
    const finished = await Promise.race([Promise.all(this.loops.map((l) => l.done)), late]);
    clearTimeout(timer);
    const left = this.loops.flatMap((l) => l.inFlight);
    if (finished === 'late' && left.length) {
      for (const id of left)
        await this.boss.fail(this.options.name, id, { message: 'worker stopped while the job ran' }).catch(() => {});
    }
  }

  private async loop(loop: Loop): Promise<void> {
    const { name, batchSize, pollMs } = this.options;
    while (!this.stopping) {
      loop.again = false;
      let fetched = 0;
      try {
        const jobs = await this.boss.fetch<unknown>(name, { batchSize, includeMetadata: true });
        fetched = jobs.length;
        loop.inFlight = jobs.map((j) => j.id);
        if (fetched) await this.runBatch(jobs);
      } catch (error) {
        if (!this.stopping) this.options.logger.warn({ err: loggableError(error), job: name }, 'job batch failed');
      } finally {
        loop.inFlight = [];
      }
      if (this.stopping || fetched === batchSize || loop.again) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          loop.wake = null;
          resolve();
        }, pollMs);
        loop.wake = () => {
          clearTimeout(timer);
          loop.wake = null;
          resolve();
        };
      });
    }
  }

  /** Runs a batch, every job on its own, then completes the ones that passed and fails (to retry) the others. */
  private async runBatch(jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<void> {
    const { name, defaults, logger } = this.options;
    const runs = jobs.map((job) => ({ job, ...jobSettings(job.data, defaults) }));
    const beat = this.heartbeat(runs.map((r) => ({ id: r.job.id, settings: r.settings })));
    const completed: string[] = [];
    const failed: { id: string; message: string; retryDelayMax: number | undefined }[] = [];
    await Promise.all(
      runs.map(async ({ job, payload, settings }) => {
        try {
          await withinSeconds(
            this.options.run({ id: job.id, payload, retryCount: job.retryCount, retryLimit: job.retryLimit }),
            settings.expireInSeconds,
          );
          completed.push(job.id);
        } catch (error) {
          logger.warn({ err: loggableError(error), job: name, jobId: job.id, retry: job.retryCount }, 'job failed');
          failed.push({
            id: job.id,
            message: error instanceof Error ? error.message : String(error),
            retryDelayMax: settings.retryDelayMax,
          });
        }
      }),
    );
    beat?.stop();
    if (completed.length) await this.boss.complete(name, completed);
    for (const f of failed) await this.boss.fail(name, f.id, { message: f.message });
    for (const f of failed)
      if (f.retryDelayMax !== undefined) await capRetryDelay(this.boss, name, f.id, f.retryDelayMax);
  }

  /**
   * While the batch runs, keeps each job's deadline a heartbeat ahead (never past its longest run): a worker
   * that dies stops beating, and pg-boss's maintenance retries its jobs once the heartbeat is stale.
   */
  private heartbeat(jobs: { id: string; settings: RunSettings }[]): { stop(): void } | null {
    const groups = new Map<string, { expire: number; heartbeat: number; ids: string[] }>();
    for (const { id, settings } of jobs) {
      if (!settings.heartbeatSeconds) continue;
      const key = `${settings.expireInSeconds}/${settings.heartbeatSeconds}`;
      const group = groups.get(key) ?? {
        expire: settings.expireInSeconds,
        heartbeat: settings.heartbeatSeconds,
        ids: [],
      };
      group.ids.push(id);
      groups.set(key, group);
    }
    if (!groups.size) return null;
    const db = this.boss.getDb();
    const beat = () =>
      Promise.all(
        [...groups.values()].map((g) =>
          db.executeSql(EXTEND_DEADLINE, [this.options.name, g.ids, g.expire, g.heartbeat]),
        ),
      ).catch((error: unknown) =>
        this.options.logger.warn({ err: loggableError(error), job: this.options.name }, 'job heartbeat failed'),
      );
    void beat();
    const seconds = Math.min(...[...groups.values()].map((g) => g.heartbeat));
    const timer = setInterval(() => void beat(), (seconds * 1000) / 2);
    return { stop: () => clearInterval(timer) };
  }
}

// pg-boss 10 fails an active job once started_on + expire_in has passed: a beat moves that to a heartbeat from now.
const EXTEND_DEADLINE = `
  UPDATE pgboss.job
  SET expire_in = LEAST($3::int * interval '1 second', now() - started_on + $4::int * interval '1 second')
  WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`;

/** A retry waits at most `seconds` (pg-boss 10's back-off has no ceiling of its own). */
async function capRetryDelay(boss: PgBoss, name: string, id: string, seconds: number): Promise<void> {
  await boss
    .getDb()
    .executeSql(
      `UPDATE pgboss.job SET start_after = LEAST(start_after, now() + ` +
        `$3::int * interval '1 second') WHERE name = $1 AND id = $2::uuid ` +
        `AND state = 'retry'`,
      [name, id, seconds],
    );
}

async function withinSeconds<T>(work: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the job ran longer than ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
