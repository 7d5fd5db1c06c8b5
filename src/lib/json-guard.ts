/**
 * Checks of untrusted JSON values that no schema states: PostgreSQL refuses `\0` in text (and jsonb),
 * deep nesting overflows the stack of anything recursive (JSON.stringify included), and prototype keys
 * are a hazard wherever objects get merged. One iterative walk, so no input can overflow it.
 */

export interface JsonProblem {
  /** Dotted path of the offending value or key inside the checked value ('' = the value itself). */
  path: string;
  message: string;
  code: 'nul_character' | 'too_deep' | 'forbidden_key';
}

/** Keys refused in any object: they reach prototypes when objects are merged or looked up. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** An object or array still to look into, and how it was reached (the path is built only for a problem). */
interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string | number | null;
}

/** The dotted path of `key` inside `frame` ('' for the value itself). */
function pathOf(frame: Frame | null, key?: string | number): string {
  const keys: (string | number)[] = key === undefined ? [] : [key];
  for (let f = frame; f !== null && f.key !== null; f = f.parent) keys.push(f.key);
  return keys.reverse().join('.');
}

const NUL = { message: 'must not contain NUL characters (\\u0000)', code: 'nul_character' } as const;

/**
 * The first problem of a value, or null: a `\0` in a string or key, nesting deeper than `maxDepth`
 * levels of objects and arrays, or a key of FORBIDDEN_KEYS. Only objects and arrays are queued, and a path is
 * spelled out only for the problem found, so a large flat array costs one pass and no allocation per element.
 */
export function findJsonProblem(value: unknown, maxDepth: number): JsonProblem | null {
  if (typeof value === 'string') return value.includes('\0') ? { path: '', ...NUL } : null;
  if (typeof value !== 'object' || value === null) return null;
  if (maxDepth < 1) return { path: '', message: `must not nest deeper than ${maxDepth} levels`, code: 'too_deep' };
  const stack: Frame[] = [{ value, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const visit = (child: unknown, key: string | number): JsonProblem | null => {
      if (typeof child === 'string') return child.includes('\0') ? { path: pathOf(frame, key), ...NUL } : null;
      if (typeof child !== 'object' || child === null) return null;
      if (frame.depth + 1 > maxDepth)
        return { path: pathOf(frame, key), message: `must not nest deeper than ${maxDepth} levels`, code: 'too_deep' };
      stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      return null;
    };
    if (Array.isArray(frame.value)) {
      for (let i = 0; i < frame.value.length; i++) {
        const problem = visit(frame.value[i], i);
        if (problem) return problem;
      }
      continue;
    }
    for (const key of Object.keys(frame.value)) {
      if (key.includes('\0'))
        return {
          path: pathOf(frame, key.replaceAll('\0', '\\u0000')),
          message: 'keys must not contain NUL characters (\\u0000)',
          code: 'nul_character',
        };
      if (FORBIDDEN_KEYS.has(key))
        return { path: pathOf(frame, key), message: `"${key}" is not allowed as a key`, code: 'forbidden_key' };
      const problem = visit((frame.value as Record<string, unknown>)[key], key);
      if (problem) return problem;
    }
  }
  return null;
}
