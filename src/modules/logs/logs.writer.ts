// The request log's writer: entries wait in memory and go to the database in batches, one multi-row INSERT each,
// flushed on a short timer, when a batch is full, and when the app closes. A crash loses what was still waiting.
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import * as repo from './logs.repo.ts';

/** How long an entry waits at most before its batch is written. */
export const FLUSH_INTERVAL_MS = 1000;
/** Entries per INSERT. */
const BATCH_SIZE = 500;
/** Entries kept waiting at most (the database is down or slow): past it the oldest are dropped, and counted. */
const MAX_WAITING = 20_000;

export class RequestLogWriter {
  private waiting: repo.NewRequestLogRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Queues an entry; written within FLUSH_INTERVAL_MS, or at once when a batch is full. */
  add(row: repo.NewRequestLogRow): void {
    this.waiting.push(row);
    if (this.waiting.length > MAX_WAITING) {
      this.waiting.shift();
      this.dropped++;
    }
    if (this.waiting.length >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  /** Writes everything waiting now (after any write under way); never throws. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.flushing) await this.flushing;
    if (this.waiting.length === 0) return;
    const rows = this.waiting;
    this.waiting = [];
    this.flushing = this.write(rows).finally(() => (this.flushing = null));
    await this.flushing;
  }

  private async write(rows: repo.NewRequestLogRow[]): Promise<void> {
    if (this.dropped > 0) {
      this.logger.warn({ dropped: this.dropped }, 'request log entries dropped: the database did not keep up');
      this.dropped = 0;
    }
    for (let i = 0; i < rows.length; i += BATCH_SIZE) {
      const batch = rows.slice(i, i + BATCH_SIZE);
      try {
        await repo.insertEntries(this.db, batch);
      } catch (error) {
        await this.retryLive(batch, error);
      }
    }
  }

  /** A batch refused (a project deleted meanwhile, the database away): its live projects' entries, once more. */
  private async retryLive(batch: repo.NewRequestLogRow[], first: unknown): Promise<void> {
    try {
      const live = await repo.existingProjects(this.db, [...new Set(batch.map((r) => r.projectId))]);
      await repo.insertEntries(
        this.db,
        batch.filter((r) => live.has(r.projectId)),
      );
    } catch (error) {
      this.logger.warn({ err: error, first, lost: batch.length }, 'request log entries could not be written');
    }
  }
}
