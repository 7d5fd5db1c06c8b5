// Compose and DKIM-sign on compose threads (piscina worker threads), so signing uses every core and the event loop
// stays free for the database and the SMTP sockets. With 0 threads the same work runs inline.
import { Piscina } from 'piscina';
import { buildMessage, type BuildResult, type BuildTask } from './compose-thread.ts';

export type { BuildResult, BuildTask } from './compose-thread.ts';
export { bodyOf, buildMessage } from './compose-thread.ts';

export interface MessageBuilder {
  build(task: BuildTask): Promise<BuildResult>;
  close(): Promise<void>;
}

/** A pool of `threads` compose threads (idle ones exit after a while); 0 = inline on the caller's thread. */
export function createMessageBuilder(threads: number): MessageBuilder {
  if (threads <= 0) return { build: buildMessage, close: async () => {} };
  const pool = new Piscina<BuildTask, BuildResult>({
    filename: new URL('./compose-thread.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
    // Each thread takes a few tasks at once: signing waits on nothing, but composing awaits streams.
    concurrentTasksPerWorker: 4,
    // A small young generation keeps a thread's memory near its live size (messages are short-lived);
    // the old generation still fits a message with 10 MB of attachments several times over.
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 },
  });
  return {
    build: (task) => pool.run(task),
    close: () => pool.destroy(),
  };
}
