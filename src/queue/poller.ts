// A short in-process poll next to the queue's jobs, for work that lives in a table of our own and must be
// picked up within a fraction of a second (a pg-boss cron runs at most once a minute). Each worker process
// runs every poller; their claims use FOR UPDATE SKIP LOCKED, so workers share the work. A poller may also
// name a NOTIFY channel: a commit that notifies it starts a round at once instead of at the next interval.
import type { Logger } from 'pino';
import type { WorkContext } from './registry.ts';
import { listenTo, type Listener } from '../db/listen.ts';

export interface PollerDefinition<C extends WorkContext = WorkContext> {
  name: string;
  /** Pause between runs that found nothing to do. */
  intervalMs: number;
  /** A NOTIFY channel that wakes this poller (optional). */
  wakeOn?: string;
  /** One round of work; true when more is waiting (the next round starts at once). */
  run(ctx: C): Promise<boolean>;
  /** Called once when the worker stops, after the last round (to finish work the poller holds). */
  stop?(ctx: C): Promise<void>;
}

/** A poller of any context type, for lists of pollers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPoller = PollerDefinition<any>;

/** Declares a poller (the identity function, like defineJob). */
export function definePoller<C extends WorkContext>(definition: PollerDefinition<C>): PollerDefinition<C> {
  return definition;
}

interface PollerState {
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** Woken during a round: run again right after it. */
  again: boolean;
}

/** Runs pollers until stopped; a failing round is logged and retried after the interval. */
export class PollerRunner {
  private stopped = false;
  private readonly states = new Map<AnyPoller, PollerState>();
  private readonly listeners: Listener[] = [];

  private ctx: WorkContext | null = null;

  constructor(
    private readonly pollers: AnyPoller[],
    private readonly logger: Logger,
  ) {}

  async start(ctx: WorkContext): Promise<void> {
    this.ctx = ctx;
    for (const poller of this.pollers) {
      this.states.set(poller, { timer: null, running: null, again: false });
      if (poller.wakeOn) this.listeners.push(await listenTo(ctx.database, poller.wakeOn, () => this.wake(poller, ctx)));
      this.schedule(poller, ctx, 0);
    }
  }

  private wake(poller: AnyPoller, ctx: WorkContext): void {
    const state = this.states.get(poller);
    if (!state || this.stopped) return;
    if (state.running) state.again = true;
    else this.schedule(poller, ctx, 0);
  }

  private schedule(poller: AnyPoller, ctx: WorkContext, delayMs: number): void {
    const state = this.states.get(poller)!;
    if (this.stopped) return;
    if (state.timer) clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = null;
      state.running = this.round(poller, ctx).then((more) => {
        state.running = null;
        const now = more || state.again;
        state.again = false;
        this.schedule(poller, ctx, now ? 0 : poller.intervalMs);
      });
    }, delayMs);
  }

  private async round(poller: AnyPoller, ctx: WorkContext): Promise<boolean> {
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
    await Promise.all(this.listeners.splice(0).map((l) => l.close()));
    for (const state of this.states.values()) if (state.timer) clearTimeout(state.timer);
    await Promise.all([...this.states.values()].map((s) => s.running));
    const ctx = this.ctx;
    if (ctx)
      await Promise.all(
        this.pollers.map((p) =>
          p
            .stop?.(ctx)
            .catch((error: unknown) => this.logger.warn({ err: error, poller: p.name }, 'poller stop failed')),
        ),
      );
  }
}
