// Renders messages on a few worker threads, off the event loop: a heavy template keeps the server
// answering. A thread still busy past its batch's budget (plus a grace) is terminated, since a runaway
// filter inside liquidjs cannot be interrupted any other way, and the next batch gets a fresh thread.
// Threads start with the first batch (~100 ms) and exit after a minute without one: a process that renders
// nothing (a worker sending campaigns, an idle API) holds no render thread (~10 MB each).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../lib/errors.ts';
import {
  budgetOf,
  RenderBudgetError,
  resultOfReply,
  type FieldBatch,
  type MessageLinks,
  type RenderBatch,
  type RenderBudget,
  type RenderReply,
  type RenderTask,
} from './render-batch.ts';
import type { RenderedMessage } from './render.ts';
import type { ProcessResources } from '../lib/process-resources.ts';

const ENTRY = new URL('./render-thread.mjs', import.meta.url);
/** Time a thread gets past its batch's budget before it is terminated. */
const GRACE_MS = 1_000;
/** Batches waiting for a thread; past it a request is answered 503 instead of queueing without bound. */
const MAX_WAITING = 64;
/** A thread's heap: a render that outgrows it ends that thread, not the process. */
const THREAD_HEAP_MB = 512;
/** A thread without a batch for this long exits. */
const IDLE_MS = 60_000;

interface Job {
  task: RenderTask;
  budget: RenderBudget;
  resolve(result: RenderedMessage[] | MessageLinks[] | string[]): void;
  reject(error: unknown): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

export class RenderPool {
  private readonly threads = new Set<Thread>();
  private readonly waiting: Job[] = [];
  private closed = false;

  constructor(
    private readonly size: number,
    /** Time a thread gets past its batch's budget before it is terminated. */
    private readonly graceMs = GRACE_MS,
    /** A thread without a batch for this long exits. */
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Threads running or starting now. */
  get threadCount(): number {
    return this.threads.size;
  }

  /** The batch's messages, rendered on a thread; throws TemplateError, RenderBudgetError, or a 503 when saturated. */
  render(batch: RenderBatch): Promise<RenderedMessage[]> {
    return this.run({ kind: 'messages', batch }) as Promise<RenderedMessage[]>;
  }

  /** The links of each of the batch's messages (renderLinksBatch), rendered on a thread; throws as render does. */
  renderLinks(batch: RenderBatch): Promise<MessageLinks[]> {
    return this.run({ kind: 'links', batch }) as Promise<MessageLinks[]>;
  }

  /**
   * The batch's fields, rendered on a thread, in order; throws FieldTemplateError, RenderBudgetError, or a 503 when
   * saturated.
   */
  renderFields(batch: FieldBatch): Promise<string[]> {
    return this.run({ kind: 'fields', batch }) as Promise<string[]>;
  }

  private run(task: RenderTask): Promise<RenderedMessage[] | MessageLinks[] | string[]> {
    if (this.closed) return Promise.reject(new Error('the render pool is closed'));
    if (this.waiting.length >= MAX_WAITING) {
      return Promise.reject(
        new AppError('SERVICE_UNAVAILABLE', 'Too many messages are being rendered right now; retry shortly', {
          headers: { 'Retry-After': '1' },
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, budget: budgetOf(task.batch.budget), resolve, reject });
      for (const thread of this.threads) if (!thread.ready) thread.worker.ref(); // a batch now waits on it
      this.pump();
    });
  }

  /** Terminates every thread; batches still waiting or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('the render pool is closed'));
    const threads = [...this.threads];
    this.threads.clear();
    for (const thread of threads) {
      clearTimeout(thread.timer);
      clearTimeout(thread.idleTimer);
      thread.job?.reject(new Error('the render pool is closed'));
    }
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private pump(): void {
    for (const thread of this.threads) {
      if (this.waiting.length === 0) return;
      if (thread.ready && !thread.job) this.dispatch(thread, this.waiting.shift()!);
    }
    const starting = [...this.threads].filter((t) => !t.ready).length;
    for (let n = starting; n < this.waiting.length && this.threads.size < this.size; n++) this.spawn();
  }

  private spawn(): void {
    // A small young generation keeps an idle or lightly used thread near its live size.
    const worker = new Worker(ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: 8 },
    });
    const thread: Thread = { worker, ready: false, job: null, timer: undefined, idleTimer: undefined };
    this.threads.add(thread);
    thread.worker.on('message', (reply: RenderReply | 'ready') => this.onMessage(thread, reply));
    thread.worker.on('error', (error) => this.onGone(thread, error));
    thread.worker.on('exit', (code) => this.onGone(thread, new Error(`render thread exited with code ${code}`)));
  }

  private dispatch(thread: Thread, job: Job): void {
    clearTimeout(thread.idleTimer);
    thread.job = job;
    thread.worker.ref();
    thread.timer = setTimeout(() => this.kill(thread), job.budget.timeMs + this.graceMs);
    thread.worker.postMessage(job.task);
  }

  private onMessage(thread: Thread, reply: RenderReply | 'ready'): void {
    if (!this.threads.has(thread)) return;
    if (reply === 'ready') {
      thread.ready = true;
    } else {
      const job = thread.job;
      clearTimeout(thread.timer);
      thread.job = null;
      try {
        job?.resolve(resultOfReply(reply));
      } catch (error) {
        job?.reject(error);
      }
    }
    this.pump();
    if (!thread.job) this.idle(thread);
  }

  /** An idle thread does not keep the process alive, and exits unless a batch comes within idleMs. */
  private idle(thread: Thread): void {
    thread.worker.unref();
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => {
      if (thread.job || !this.threads.delete(thread)) return;
      void thread.worker.terminate();
    }, this.idleMs);
    thread.idleTimer.unref();
  }

  private kill(thread: Thread): void {
    const job = thread.job;
    this.threads.delete(thread);
    clearTimeout(thread.idleTimer);
    void thread.worker.terminate();
    if (job) job.reject(new RenderBudgetError('time', job.budget));
    this.pump();
  }

  private onGone(thread: Thread, error: Error): void {
    if (!this.threads.delete(thread)) return;
    clearTimeout(thread.timer);
    clearTimeout(thread.idleTimer);
    // A thread that died before it was ready fails one waiting batch, so a broken start cannot respawn forever.
    const job = thread.job ?? (thread.ready ? null : (this.waiting.shift() ?? null));
    const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
    job?.reject(outOfMemory ? new RenderBudgetError('size', job.budget) : error);
    this.pump();
  }
}

/**
 * Threads for rendering: one core is left to the event loop, and two at least so one heavy request cannot hold them
 * all.
 */
function poolSize(): number {
  return Math.max(2, Math.min(4, availableParallelism() - 1));
}

const REQUEST_POOL = Symbol('the render pool of requests');

/** The render pool of a process's requests (sends, previews, tests), made on first use and closed with it. */
export function renderPool(owner: { resources: ProcessResources }): RenderPool {
  return owner.resources.of(
    REQUEST_POOL,
    () => new RenderPool(poolSize()),
    (pool) => pool.close(),
  );
}

/** Renders one template for each set of variables, off the event loop, within the batch's budget. */
export function renderMessages(owner: { resources: ProcessResources }, batch: RenderBatch): Promise<RenderedMessage[]> {
  return renderPool(owner).render(batch);
}
