/**
 * The official Plunk Node SDK, constructed the same way under vitest and plain Node (it is CommonJS with
 * `exports.default`).
 */
import PlunkModule from '@plunk/node';

type PlunkClass = typeof import('@plunk/node').default;
const Plunk = ((PlunkModule as unknown as { default?: PlunkClass }).default ?? PlunkModule) as unknown as new (
  key: string,
  options?: { baseUrl?: string },
) => InstanceType<PlunkClass>;

/** A Plunk client pointed at a Herald base URL such as `http://127.0.0.1:3000/v1/`. */
export function createPlunk(key: string, baseUrl: string): InstanceType<PlunkClass> {
  return new Plunk(key, { baseUrl });
}
