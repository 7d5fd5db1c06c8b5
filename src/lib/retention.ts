// What every retention job shares: the cut-off `days` back, and repeating a batch until one comes back short.
import { daysBefore } from './durations.ts';

/** The moment `days` days before `now`: rows older than it are past their retention. */
export function retentionCutoff(days: number, now: Date = new Date()): Date {
  return daysBefore(now, days);
}

/**
 * Runs `batch` (which handles at most `size` rows, each call its own short transaction) until a call handles fewer
 * than `size`; answers the total. Small batches keep locks short, so the live work goes on beside it.
 */
export async function inBatches(size: number, batch: (size: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await batch(size);
    total += done;
    if (done < size) return total;
  }
}
