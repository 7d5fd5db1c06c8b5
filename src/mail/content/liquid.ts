// Liquid inside content that is compiled on save: outputs (`{{ … }}`) and tags (`{% … %}`) are rendered per
// recipient later, so the compilers around them (MJML, the sanitiser) must neither read nor change them. They are
// swapped for inert placeholders before compiling and put back, byte for byte, after.

/** [start, end) of each Liquid output or tag, in order. Linear: an opener without a closer ends the search. */
export function liquidSpans(source: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const open = { '{': true, '%': true };
  for (let at = source.indexOf('{'); at !== -1; ) {
    const kind = source[at + 1];
    if ((kind === '{' || kind === '%') && open[kind]) {
      const end = source.indexOf(kind === '{' ? '}}' : '%}', at + 2);
      if (end !== -1) {
        spans.push([at, end + 2]);
        at = source.indexOf('{', end + 2);
        continue;
      }
      open[kind] = false; // no closer after here, so none after any later opener either
    }
    at = source.indexOf('{', at + 1);
  }
  return spans;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c);

/** Plain text as HTML text or a double-quoted attribute, its Liquid as written (`{{ name | default: "you" }}`). */
export function escapeOutsideLiquid(text: string): string {
  let out = '';
  let from = 0;
  for (const [start, end] of liquidSpans(text)) {
    out += escapeHtml(text.slice(from, start)) + text.slice(start, end);
    from = end;
  }
  return out + escapeHtml(text.slice(from));
}

/** `text` with its Liquid removed, to check what is written around it. */
export function withoutLiquid(text: string): string {
  let out = '';
  let from = 0;
  for (const [start, end] of liquidSpans(text)) {
    out += text.slice(from, start);
    from = end;
  }
  return out + text.slice(from);
}

export interface ProtectedLiquid {
  /** The source with each Liquid span replaced by a placeholder (lowercase letters and digits, no line break). */
  text: string;
  /** The original spans; placeholder `marker + i + 'x'` stands for `tokens[i]`. */
  tokens: string[];
  marker: string;
  /** Finds placeholders in compiled output: group 1 is the token's index. */
  pattern: () => RegExp;
  /** The source line of a line of `text` (spans with line breaks collapsed lines). */
  originalLine: (line: number) => number;
  /** The source line a token starts on. */
  tokenLine: (index: number) => number;
}

/** Placeholders are `<marker><index>x`, with a marker the source does not contain, so none can be forged. */
function markerFor(source: string): string {
  let marker = 'hlqz';
  for (let n = 0; source.includes(marker); n++) marker = `hlqz${n}q`;
  return marker;
}

const countLines = (text: string): number => {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

/** Replaces every Liquid span of `source` by a placeholder. */
export function protectLiquid(source: string): ProtectedLiquid {
  const marker = markerFor(source);
  const tokens: string[] = [];
  const startLines: number[] = [];
  // Where line breaks vanished: after protected line `at`, `removed` more source lines.
  const collapsed: Array<{ at: number; removed: number }> = [];
  let text = '';
  let from = 0;
  let sourceLine = 1;
  let protectedLine = 1;
  for (const [start, end] of liquidSpans(source)) {
    const before = source.slice(from, start);
    const token = source.slice(start, end);
    const beforeLines = countLines(before);
    sourceLine += beforeLines;
    protectedLine += beforeLines;
    startLines.push(sourceLine);
    const removed = countLines(token);
    if (removed > 0) collapsed.push({ at: protectedLine, removed });
    sourceLine += removed;
    text += `${before}${marker}${tokens.length}x`;
    tokens.push(token);
    from = end;
  }
  text += source.slice(from);
  return {
    text,
    tokens,
    marker,
    pattern: () => new RegExp(`${marker}(\\d+)x`, 'g'),
    originalLine: (line) => collapsed.reduce((sum, c) => (c.at < line ? sum + c.removed : sum), line),
    tokenLine: (index) => startLines[index] ?? 1,
  };
}

/** Puts the Liquid back into `output`; `missing` lists the tokens that did not survive (by index). */
export function restoreLiquid(protectedLiquid: ProtectedLiquid, output: string): { text: string; missing: number[] } {
  const { tokens } = protectedLiquid;
  if (tokens.length === 0) return { text: output, missing: [] };
  const seen = new Uint8Array(tokens.length);
  const text = output.replace(protectedLiquid.pattern(), (whole, index: string) => {
    const i = Number(index);
    if (i >= tokens.length) return whole;
    seen[i] = 1;
    return tokens[i] as string;
  });
  const missing: number[] = [];
  seen.forEach((s, i) => {
    if (!s) missing.push(i);
  });
  return { text, missing };
}

/** Restores the Liquid inside a message quoting the protected source (an MJML error naming an attribute). */
export function restoreInMessage(protectedLiquid: ProtectedLiquid, message: string): string {
  return restoreLiquid(protectedLiquid, message).text;
}
