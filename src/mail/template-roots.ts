// Which top-level variables a set of templates reads: a campaign email row keeps only those of its
// recipient's variables, so its copy renders the same at every attempt and the row stays small.
import { Liquid } from 'liquidjs';
import { rewriteFallbacks } from './render-fallback.ts';

const analyser = new Liquid({ ownPropertyOnly: true });

/**
 * The root names the templates read (`contact` for `{{ contact.data.x }}`); null when one cannot be analysed (keep
 * everything).
 */
export function templateRoots(sources: string[]): Set<string> | null {
  const roots = new Set<string>();
  try {
    for (const source of sources) {
      for (const name of analyser.globalVariablesSync(rewriteFallbacks(source).source)) roots.add(name);
    }
  } catch {
    return null;
  }
  return roots;
}

/** The variables limited to `roots` (all of them when roots is null). */
export function pickVariables(variables: Record<string, unknown>, roots: Set<string> | null): Record<string, unknown> {
  if (roots === null) return variables;
  return Object.fromEntries(Object.entries(variables).filter(([name]) => roots.has(name)));
}
