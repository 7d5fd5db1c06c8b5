import { describe, expect, it } from 'vitest';
import { WeightedSemaphore } from './weighted-semaphore.ts';

describe('WeightedSemaphore', () => {
  it('lets takers in while they fit, in order, and the next waiter in once bytes come back', async () => {
    const budget = new WeightedSemaphore(10);
    const order: string[] = [];
    await budget.take(6);
    const a = budget.take(5).then(() => order.push('a'));
    const b = budget.take(1).then(() => order.push('b')); // would fit, but waits behind a: first come, first served
    await Promise.resolve();
    expect(order).toEqual([]);
    budget.release(6);
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(budget.held).toBe(6);
  });

  it('gives a taker larger than the whole budget everything once nothing else is held', async () => {
    const budget = new WeightedSemaphore(10);
    await budget.take(3);
    let big = false;
    const taking = budget.take(25).then(() => (big = true));
    await Promise.resolve();
    expect(big).toBe(false);
    budget.release(3);
    await taking;
    expect(big).toBe(true);
    expect(budget.held).toBe(25);
    budget.release(25);
    expect(budget.held).toBe(0);
  });

  it('tryTake takes only what fits now, never ahead of a waiter, and takes nothing when it says no', async () => {
    const budget = new WeightedSemaphore(10);
    expect(budget.tryTake(8)).toBe(true);
    expect(budget.tryTake(3)).toBe(false);
    expect(budget.held).toBe(8);
    const waiter = budget.take(5);
    budget.release(2);
    expect(budget.tryTake(1)).toBe(false); // it would fit, but the waiter of 5 is first in line
    budget.release(6);
    await waiter;
    expect(budget.held).toBe(5);
    expect(budget.tryTake(5)).toBe(true);
    expect(budget.held).toBe(10);
  });
});
