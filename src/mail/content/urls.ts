// The URLs a block document may hold. A value that starts with a Liquid output (`{{ manageUrl }}`) is checked
// again when it is rendered (render.ts neutralises unsafe schemes); any other value is checked here.
import { withoutLiquid } from './liquid.ts';

const LIQUID_START = /^\{\{/;
const HTTP = /^https?:\/\/[^\s/?#]+/i;
const MAILTO = /^mailto:[^\s]+$/i;

/** A link target: http(s), mailto, or a Liquid output first. Liquid elsewhere in it (`?id={{ id }}`) is allowed. */
export function isSafeUrl(value: string): boolean {
  if (LIQUID_START.test(value)) return true;
  const plain = withoutLiquid(value);
  if (/\s/.test(plain)) return false;
  return HTTP.test(value) || MAILTO.test(plain);
}

/** An image source: http(s) or a Liquid output first. */
export function isSafeImageSrc(value: string): boolean {
  if (LIQUID_START.test(value)) return true;
  return HTTP.test(value) && !/\s/.test(withoutLiquid(value));
}
