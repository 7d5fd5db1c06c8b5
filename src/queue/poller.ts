// A short in-process poll next to the queue's jobs, for work that lives in a table of our own and must be
// picked up within a fraction of a second (a pg-boss cron runs at most once a minute). Each worker process
// runs every poller; their claims use FOR UPDATE SKIP LOCKED, so workers share the work.
import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';

export interface PollerDefinition {
  name: string;
  /** Pause between runs that found nothing to do. */
  intervalMs: number;
  /** One round of work; true when more is waiting (the next round starts at once). */
  run(ctx: AppContext): Promise<boolean>;
}

/** Declares a poller (the identity function, like defineJob). */
export function definePoller(definition: PollerDefinition): PollerDefinition {
  return definition;
}

/** Runs pollers until stopped; a failing round is logged and retried after the interval. */
export class PollerRunner {
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly pollers: PollerDefinition[], private readonly logger: Logger) {}

  start(ctx: AppContext): void {
    for (const poller of this.pollers) this.schedule(poller, ctx, 0);
  }

  private schedule(poller: PollerDefinition, ctx: AppContext, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const round = this.round(poller, ctx).then((more) => this.schedule(poller, ctx, more ? 0 : poller.intervalMs));
      this.running.add(round);
      void round.finally(() => this.running.delete(round));
    }, delayMs);
    this.timers.add(timer);
  }

  private async round(poller: PollerDefinition, ctx: AppContext): Promise<boolean> {
    try {
      return await poller.run(ctx);
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error, poller: poller.name }, 'poller round failed');
      return false;
    }
  }

  /** Stops scheduling rounds and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.running]);
  }
}
