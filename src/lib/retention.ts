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

/** A retention pass: the days rows are kept, and (for tests) the moment it runs and its batch size. */
export interface RetentionPass {
  days: number;
  now?: Date | undefined;
  batchSize?: number | undefined;
}

/**
 * Deletes every row older than `days` through `deleteBatch` (which deletes at most `size` rows from before `before`,
 * in a short transaction of its own), batch by batch; answers how many.
 */
export function deleteExpired(
  pass: RetentionPass,
  deleteBatch: (before: Date, size: number) => Promise<number>,
): Promise<number> {
  const before = retentionCutoff(pass.days, pass.now);
  return inBatches(pass.batchSize ?? 1000, (size) => deleteBatch(before, size));
}
