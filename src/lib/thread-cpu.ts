// CPU time the calling thread (the main thread or a worker thread) has run, from Linux's scheduler statistics, in
// milliseconds with nanosecond precision; null where the system does not give it.
import { readFileSync } from 'node:fs';

let readable = true;

export function threadCpuMs(): number | null {
  if (!readable) return null;
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]) / 1e6;
  } catch {
    readable = false;
    return null;
  }
}
