import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first call instead of when the process starts. For large packages that most
 * processes never use (an MJML compiler is 40 MB of memory once loaded): a sending or tracking process then never
 * holds them. The first call pays the load, once.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
