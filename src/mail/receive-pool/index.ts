// Received messages are read and authenticated on receive threads (piscina worker threads): parsing a 25 MB
// message or checking its signatures takes CPU that would otherwise stall every request of the process, and a
// thread has a heap limit of its own. A message that takes a thread longer than its deadline ends that thread.
import { Piscina } from 'piscina';
import type { ReceiveResult, ReceiveTask } from './receive-thread.ts';

export type { AuthVerdicts } from './authenticate.ts';
export type { ParsedAttachment, ParsedMessage } from './parse.ts';
export type { ReceiveResult, ReceiveTask } from './receive-thread.ts';
export { MAX_SIGNATURES } from './authenticate.ts';
export { MAX_BODY_BYTES } from './parse.ts';

export interface ReceivedReader {
  /** Reads one message; rejects when its thread ran past `deadlineMs` or out of memory. */
  read(task: ReceiveTask, deadlineMs: number): Promise<ReceiveResult>;
  close(): Promise<void>;
}

/** A pool of up to `threads` receive threads; they start with the first message and exit when idle. */
export function createReceivedReader(threads: number): ReceivedReader {
  const pool = new Piscina<ReceiveTask, ReceiveResult>({
    filename: new URL('./receive-thread.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Authentication waits on DNS: a thread takes a second message meanwhile.
    concurrentTasksPerWorker: 2,
    // Two messages of the largest size, parsed, fit several times over; a message that outgrows it ends its thread.
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 },
  });
  return {
    read: (task, deadlineMs) => pool.run(task, { signal: AbortSignal.timeout(deadlineMs) }),
    close: () => pool.destroy(),
  };
}
