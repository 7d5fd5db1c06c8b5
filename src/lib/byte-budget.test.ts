import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.ts';

describe('ByteBudget', () => {
  it('lets takers in while they fit, in order, and the next waiter in once bytes come back', async () => {
    const budget = new ByteBudget(10);
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
    const budget = new ByteBudget(10);
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
});
