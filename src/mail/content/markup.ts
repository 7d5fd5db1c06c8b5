// A small, linear scanner of MJML/HTML markup: start and end tags with their attributes, comments and the text
// between. Enough to refuse unsafe markup and to see where a Liquid placeholder stands; MJML parses for real.
import { decodeHtmlEntities } from '../html-attrs.ts';

export interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** The text between the name and `>`. */
  attributes: string;
  start: number;
  end: number;
}

export interface ScanVisitor {
  tag?: (tag: Tag) => void;
  text?: (start: number, end: number) => void;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Index just past the `>` ending a tag opened before `from`, or -1; a quote after `=` opens a quoted value. */
function tagEnd(html: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (afterEquals && (c === '"' || c === "'")) {
      const close = html.indexOf(c, i + 1);
      if (close === -1) return -1;
      i = close;
      afterEquals = false;
    } else if (c === '>') return i + 1;
    else if (c === '=') afterEquals = true;
    else if (!isSpace(c)) afterEquals = false;
  }
  return -1;
}

const NAME = /^<(\/?)([a-zA-Z][\w:.-]*)/;

/**
 * Calls `visitor` for each tag and each run of text. Comments are text unless `intoComments`, which scans their inside
 * as markup (conditional comments hold markup Outlook reads). A tag left open ends the scan: the rest is text.
 */
export function scanMarkup(html: string, visitor: ScanVisitor, intoComments = false): void {
  let textFrom = 0;
  const flushText = (to: number) => {
    if (to > textFrom) visitor.text?.(textFrom, to);
  };
  for (let at = html.indexOf('<'); at !== -1 && at < html.length; ) {
    if (html.startsWith('<!--', at)) {
      if (intoComments) {
        flushText(at);
        textFrom = at + 4;
        at = html.indexOf('<', at + 4);
        continue;
      }
      const close = html.indexOf('-->', at + 4);
      at = close === -1 ? -1 : html.indexOf('<', close + 3);
      continue;
    }
    const head = NAME.exec(html.slice(at, at + 200));
    if (!head) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const end = tagEnd(html, at + head[0].length);
    if (end === -1) break;
    flushText(at);
    const inner = html.slice(at + head[0].length, end - 1);
    visitor.tag?.({
      name: (head[2] as string).toLowerCase(),
      closing: head[1] === '/',
      selfClosing: inner.trimEnd().endsWith('/'),
      attributes: inner,
      start: at,
      end,
    });
    textFrom = end;
    at = html.indexOf('<', end);
  }
  flushText(html.length);
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The attributes of a tag, values decoded. */
export function attributesOf(tag: Tag): Array<{ name: string; value: string }> {
  const found: Array<{ name: string; value: string }> = [];
  for (const m of tag.attributes.matchAll(ATTRIBUTE)) {
    const raw = m[2] ?? m[3] ?? m[4] ?? '';
    found.push({ name: (m[1] as string).toLowerCase(), value: decodeHtmlEntities(raw) });
  }
  return found;
}

/** Browsers ignore white space and control characters inside a URL's scheme. */
// eslint-disable-next-line no-control-regex
const compact = (value: string): string => value.replace(/[\u0000-\u0020]+/g, '').toLowerCase();

/** Whether an attribute value or a style sheet holds a script URL or a CSS expression. */
export function holdsScript(value: string): boolean {
  const v = compact(value);
  return v.includes('javascript:') || v.includes('vbscript:') || v.includes('expression(');
}

export interface UnsafeFinding {
  index: number;
  message: string;
}

const STYLE_ELEMENTS = new Set(['style', 'mj-style']);
/** Elements that run or embed active content; mail clients drop them, a template never needs them. */
const ACTIVE_ELEMENTS = new Set(['script', 'iframe', 'object', 'embed']);

/**
 * Markup that would run script in a client: script, iframe, object and embed elements, event-handler attributes
 * (`onclick=`), and javascript:/vbscript: URLs or CSS expressions in attributes and style sheets, inside comments
 * too.
 */
export function findUnsafeMarkup(html: string): UnsafeFinding[] {
  const found: UnsafeFinding[] = [];
  let styleFrom = -1;
  scanMarkup(
    html,
    {
      tag: (tag) => {
        if (STYLE_ELEMENTS.has(tag.name)) {
          if (!tag.closing && !tag.selfClosing) styleFrom = tag.end;
          else if (tag.closing && styleFrom !== -1) {
            if (holdsScript(html.slice(styleFrom, tag.start)))
              found.push({ index: styleFrom, message: 'a style sheet holds a javascript: URL or an expression()' });
            styleFrom = -1;
          }
        }
        if (tag.closing) return;
        if (ACTIVE_ELEMENTS.has(tag.name))
          found.push({ index: tag.start, message: `${tag.name} elements are not allowed` });
        for (const { name, value } of attributesOf(tag)) {
          if (name.startsWith('on')) {
            found.push({ index: tag.start, message: `event-handler attributes (${name}) are not allowed` });
          } else if (holdsScript(value)) {
            found.push({ index: tag.start, message: `javascript: URLs are not allowed (${tag.name} ${name})` });
          }
        }
      },
    },
    true,
  );
  // A script element the scanner could not read as a tag (unterminated, odd spacing) is refused all the same.
  const script = /<\s*script\b/i.exec(html);
  if (script && !found.some((f) => f.index === script.index)) {
    found.push({ index: script.index, message: 'script elements are not allowed' });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** 1-based line of `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
