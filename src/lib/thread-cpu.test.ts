import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadCpuMs } from './thread-cpu.ts';

describe('threadCpuMs', () => {
  it.skipIf(process.platform !== 'linux')('counts the time the thread ran, not the time it waited', async () => {
    const start = threadCpuMs()!;
    await sleep(200);
    expect(threadCpuMs()! - start).toBeLessThan(50);
    // Spinning accrues CPU time, however busy the machine (up to a generous bound of wall-clock time).
    const spinStart = threadCpuMs()!;
    const giveUp = performance.now() + 10_000;
    while (threadCpuMs()! - spinStart < 100 && performance.now() < giveUp);
    expect(threadCpuMs()! - spinStart).toBeGreaterThanOrEqual(100);
  });
});
