import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json.ts';

describe('sameJson', () => {
  it('ignores the order of object keys, at any depth, and undefined members', () => {
    expect(sameJson({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });
  it('keeps array order and values', () => {
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameJson({ a: null }, {})).toBe(false);
  });
});
