// Received messages are read and authenticated on receive threads (piscina worker threads): parsing a 25 MB
// message or checking its signatures takes CPU that would otherwise stall every request of the process, and a
// thread has a heap limit of its own. A message that takes a thread longer than its deadline ends that thread.
import { Piscina } from 'piscina';
import type { ReceiveResult, ReceiveTask } from './receive-thread.ts';

export type { AuthVerdicts } from './authenticate.ts';
export type { ParsedAttachment, ParsedMessage } from './parse.ts';
export type { ReceiveResult, ReceiveTask } from './receive-thread.ts';
export type { DmarcReport, DmarcRow, ReportsRead, TlsReport } from './report-files.ts';

export interface ReceivedReader {
  /** Reads one message; rejects when its thread ran past `deadlineMs` or out of memory. */
  read(task: ReceiveTask, deadlineMs: number): Promise<ReceiveResult>;
  close(): Promise<void>;
}

/** A pool of up to `threads` receive threads; they start with the first message and exit when idle (a minute). */
export function createReceivedReader(threads: number): ReceivedReader {
  const pool = new Piscina<ReceiveTask, ReceiveResult>({
    filename: new URL('./receive-thread.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Authentication mostly waits on DNS: a thread reads other messages meanwhile. (Large messages in flight are
    // bounded by the listener's budget, so a thread holds at most a few of them.)
    concurrentTasksPerWorker: 4,
    // A few messages of the largest size, parsed, fit; one that outgrows the heap ends its thread. A small limit
    // also makes V8 collect a thread's garbage early rather than let it grow to the limit.
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 },
  });
  return {
    read: (task, deadlineMs) => pool.run(task, { signal: AbortSignal.timeout(deadlineMs) }),
    close: () => pool.destroy(),
  };
}
