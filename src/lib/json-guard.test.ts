import { describe, expect, it } from 'vitest';
import { findJsonProblem } from './json-guard.ts';

describe('findJsonProblem', () => {
  it('names the path of a NUL in a value or a key, a forbidden key, and nesting past the limit', () => {
    expect(findJsonProblem({ a: [1, { b: 'x\0y' }] }, 8)).toEqual({
      path: 'a.1.b',
      message: expect.stringContaining('NUL'),
      code: 'nul_character',
    });
    expect(findJsonProblem({ a: { 'k\0': 1 } }, 8)).toMatchObject({ path: 'a.k\\u0000', code: 'nul_character' });
    expect(findJsonProblem(JSON.parse('{"a": [{"__proto__": 1}]}'), 8)).toMatchObject({
      path: 'a.0.__proto__',
      code: 'forbidden_key',
    });
    expect(findJsonProblem({ constructor: 1 }, 8)).toMatchObject({ path: 'constructor', code: 'forbidden_key' });
    expect(findJsonProblem({ a: { b: { c: {} } } }, 3)).toMatchObject({ path: 'a.b.c', code: 'too_deep' });
    expect(findJsonProblem({ a: { b: { c: 1 } } }, 3)).toBeNull();
    expect(findJsonProblem('x\0', 3)).toMatchObject({ path: '', code: 'nul_character' });
    expect(findJsonProblem([[[]]], 2)).toMatchObject({ path: '0.0', code: 'too_deep' });
    expect(findJsonProblem(null, 1)).toBeNull();
  });

  it('walks a large flat array and a deep chain without recursion', () => {
    expect(
      findJsonProblem(
        Array.from({ length: 500_000 }, (_, i) => (i % 2 ? 0 : 's')),
        4,
      ),
    ).toBeNull();
    let deep: unknown = 'x\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findJsonProblem(deep, 200_000)).toMatchObject({ code: 'nul_character' });
    expect(findJsonProblem(deep, 64)).toMatchObject({ code: 'too_deep' });
  });
});
