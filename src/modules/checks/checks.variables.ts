// Which contact data a template reads without a fallback: the keys a recipient without them would see empty.
import { Liquid } from 'liquidjs';
import { rewriteFallbacks } from '../../mail/render-fallback.ts';

const analyser = new Liquid({ ownPropertyOnly: true });

/** Variables every message has, whatever the contact's data. */
const BUILT_IN = new Set(['email', 'contact', 'unsubscribeUrl', 'manageUrl', 'viewInBrowserUrl', 'confirmUrl']);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The contact data keys the templates read (`{{ firstName }}`, `{{ contact.data.city }}`) without a fallback
 * (`{{ firstName ?? "there" }}` or `| default:`), in order of first use; a template that cannot be analysed reads
 * none (its syntax is checked where it is saved).
 */
export function dataKeysRead(sources: string[]): string[] {
  const keys = new Set<string>();
  for (const original of sources) {
    const { source } = rewriteFallbacks(original);
    let segments: (string | number)[][];
    try {
      segments = analyser.globalVariableSegmentsSync(source) as (string | number)[][];
    } catch {
      continue;
    }
    for (const path of segments) {
      const [root, second, third] = path.map(String);
      const viaContact = root === 'contact' && second === 'data' && third !== undefined;
      const key = viaContact ? third : root;
      if (!key || (!viaContact && BUILT_IN.has(key))) continue;
      const written = viaContact ? `contact.data.${key}` : key;
      if (new RegExp(`(^|[^\\w.])${escaped(written)}\\s*\\|\\s*default\\s*:`).test(source)) continue;
      keys.add(key);
    }
  }
  return [...keys];
}
