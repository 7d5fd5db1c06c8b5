import { describe, expect, it } from 'vitest';
import { threadCpuMs } from './thread-cpu.ts';

describe('threadCpuMs', () => {
  it.skipIf(process.platform !== 'linux')('counts the time the thread ran, not the time it waited', () => {
    // The thread blocks for 200 ms without returning to its event loop, so nothing else (a timer or socket left by
    // another test file in the same process, a garbage collection) can run on it meanwhile: it waits and accrues no
    // CPU time beyond the few milliseconds of going to sleep and waking up.
    const start = threadCpuMs()!;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    expect(threadCpuMs()! - start).toBeLessThan(50);
    // Spinning accrues CPU time, however busy the machine (up to a generous bound of wall-clock time).
    const spinStart = threadCpuMs()!;
    const giveUp = performance.now() + 10_000;
    while (threadCpuMs()! - spinStart < 100 && performance.now() < giveUp);
    expect(threadCpuMs()! - spinStart).toBeGreaterThanOrEqual(100);
  });
});
