// Plunk's `{{ name ?? "there" }}` fallback syntax, rewritten to Liquid's `default` filter before parsing.

const FALLBACK = '??';
const REPLACEMENT = '| default:';

export interface RewrittenSource {
  source: string;
  /** Positions of each replacement: index in the original and in the rewritten source. */
  shifts: Array<{ original: number; rewritten: number }>;
}

// Rewrites `??` inside `{{ … }}` outside string literals: `a ?? "x" | upcase` → `a | default: "x" | upcase`.
export function rewriteFallbacks(input: string): RewrittenSource {
  if (!input.includes(FALLBACK)) return { source: input, shifts: [] };
  let out = '';
  const shifts: RewrittenSource['shifts'] = [];
  let inOutput = false;
  let quote: string | null = null;
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (!inOutput) {
      if (input.startsWith('{{', i)) {
        inOutput = true;
        out += '{{';
        i += 2;
        continue;
      }
    } else if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (input.startsWith('}}', i)) {
      inOutput = false;
      out += '}}';
      i += 2;
      continue;
    } else if (input.startsWith(FALLBACK, i)) {
      shifts.push({ original: i, rewritten: out.length });
      out += REPLACEMENT;
      i += FALLBACK.length;
      continue;
    }
    out += ch;
    i += 1;
  }
  return { source: out, shifts };
}

// Maps an index in the rewritten source back to the original, so errors point at what the author wrote.
export function mapRewrittenIndex(rewritten: RewrittenSource, index: number): number {
  let delta = 0;
  for (const shift of rewritten.shifts) {
    if (index < shift.rewritten) break;
    if (index < shift.rewritten + REPLACEMENT.length) return shift.original;
    delta += REPLACEMENT.length - FALLBACK.length;
  }
  return index - delta;
}
