// Minimal HTML attribute handling for rendered email bodies: find URL attributes in start tags,
// decode/encode their values. Regex based on purpose: email HTML is our own rendered output, and a
// DOM library would re-serialise (and subtly change) markup that mail clients are picky about.

// `<name` of one of the given tags, followed by whitespace, `/` or `>`.
function tagOpenPattern(tagNames: readonly string[]): RegExp {
  return new RegExp(`<(${tagNames.join('|')})(?=[\\s/>])`, 'gi');
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

// Index of the `>` that ends a start tag, or -1. Like a browser, a quote opens a quoted value only right
// after `=`, and such a value may contain `>`. A linear scan on purpose: a regex with a repeated group
// here went quadratic on unterminated tags (`<a <a <a …` took seconds).
function findTagEnd(html: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html[i] as string;
    if (afterEquals && (c === '"' || c === "'")) {
      const close = html.indexOf(c, i + 1);
      if (close === -1) return -1;
      i = close;
      afterEquals = false;
    } else if (c === '>') {
      return i;
    } else if (c === '=') {
      afterEquals = true;
    } else if (!isSpace(c)) {
      afterEquals = false;
    }
  }
  return -1;
}

// name, then optionally = and a double-quoted, single-quoted or unquoted value.
const ATTRIBUTE = /(\s)([^\s"'>/=]+)(?:(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

// Attribute values in HTML are entity-encoded (`&amp;` in URLs); compare and sign the decoded form.
export function decodeHtmlEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

// Encodes a value for a double-quoted attribute.
export function encodeAttributeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface AttributeVisit {
  tag: string;
  name: string;
  /** Decoded value. */
  value: string;
  /** The whole start tag, e.g. to look at other attributes. */
  startTag: string;
}

function rewriteTagAttributes(
  tag: string,
  attrs: string,
  startTag: string,
  wanted: ReadonlySet<string>,
  replace: (visit: AttributeVisit) => string | null,
): string | null {
  let changed = false;
  const newAttrs = attrs.replace(
    ATTRIBUTE,
    (whole: string, space: string, name: string, eq?: string, dq?: string, sq?: string, uq?: string) => {
      if (eq === undefined || !wanted.has(name.toLowerCase())) return whole;
      const raw = dq ?? sq ?? uq ?? '';
      const next = replace({
        tag: tag.toLowerCase(),
        name: name.toLowerCase(),
        value: decodeHtmlEntities(raw),
        startTag,
      });
      if (next === null) return whole;
      changed = true;
      return `${space}${name}="${encodeAttributeValue(next)}"`;
    },
  );
  return changed ? `<${tag}${newAttrs}>` : null;
}

// Rewrites selected attributes of selected tags; `replace` returns the new decoded value, or null to keep it.
export function rewriteAttributes(
  html: string,
  tagNames: readonly string[],
  attributeNames: readonly string[],
  replace: (visit: AttributeVisit) => string | null,
): string {
  const wanted = new Set(attributeNames.map((n) => n.toLowerCase()));
  const open = tagOpenPattern(tagNames);
  let out = '';
  let copied = 0;
  for (let m = open.exec(html); m !== null; m = open.exec(html)) {
    const attrsStart = m.index + m[0].length;
    const end = findTagEnd(html, attrsStart);
    if (end === -1) break; // an unterminated tag swallows the rest of the document, as in a browser
    const tag = m[1] as string;
    const startTag = html.slice(m.index, end + 1);
    const rewritten = rewriteTagAttributes(tag, html.slice(attrsStart, end), startTag, wanted, replace);
    if (rewritten !== null) {
      out += html.slice(copied, m.index) + rewritten;
      copied = end + 1;
    }
    open.lastIndex = end + 1;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

// The scheme of a URL as a browser would see it (control characters and whitespace are ignored), or null if relative.
export function urlScheme(value: string): string | null {
  // eslint-disable-next-line no-control-regex
  const compact = value.replace(/[\u0000-\u0020\u007f]+/g, '');
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return m?.[1] ? m[1].toLowerCase() : null;
}
