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

const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

/**
 * The first problem of a value, or null: a `\0` in a string or key, nesting deeper than `maxDepth`
 * levels of objects and arrays, or a key of FORBIDDEN_KEYS.
 */
export function findJsonProblem(value: unknown, maxDepth: number): JsonProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      if (item.value.includes('\0')) return { path: item.path, message: 'must not contain NUL characters (\\u0000)', code: 'nul_character' };
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return { path: item.path, message: `must not nest deeper than ${maxDepth} levels`, code: 'too_deep' };
    if (Array.isArray(item.value)) {
      item.value.forEach((v, i) => stack.push({ value: v, path: join(item.path, i), depth }));
      continue;
    }
    for (const key of Object.keys(item.value)) {
      const path = join(item.path, key);
      if (key.includes('\0')) return { path: join(item.path, key.replaceAll('\0', '\\u0000')), message: 'keys must not contain NUL characters (\\u0000)', code: 'nul_character' };
      if (FORBIDDEN_KEYS.has(key)) return { path, message: `"${key}" is not allowed as a key`, code: 'forbidden_key' };
      stack.push({ value: (item.value as Record<string, unknown>)[key], path, depth });
    }
  }
  return null;
}
