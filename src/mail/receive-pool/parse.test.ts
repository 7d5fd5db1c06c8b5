import { describe, expect, it } from 'vitest';
import { capBytes } from './parse.ts';

describe('capBytes', () => {
  it('keeps a string within the bytes as it is', () => {
    expect(capBytes('hello', 5)).toEqual({ value: 'hello', truncated: false });
    expect(capBytes('é'.repeat(10), 20)).toEqual({ value: 'é'.repeat(10), truncated: false });
  });

  it('cuts at a character boundary, never through a multi-byte character', () => {
    expect(capBytes('aé', 2)).toEqual({ value: 'a', truncated: true });
    expect(capBytes('😀😀', 6)).toEqual({ value: '😀', truncated: true });
    const cut = capBytes('ü'.repeat(1000), 999);
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(cut.value)).toBe(998);
    expect(cut.value).toBe('ü'.repeat(499));
  });
});
