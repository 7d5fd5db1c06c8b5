// The HTML a block document may carry, cleaned with sanitize-html, its Liquid kept as written.
//   text blocks and footers: a small rich-text subset (p, br, strong, em, a[href], ul, ol, li, span with a colour);
//     a link's href must be http(s), mailto or start with a Liquid output, or the block is refused.
//   html blocks: most of HTML email (tables, images, inline styles, fonts, links) with what could run script
//     removed: script, iframe, object, embed, forms, on* attributes, javascript:/vbscript: URLs, CSS expressions.
//     An image's src may be data:image/(png|gif|jpeg|webp), as at send time; any other data: URL is removed.
import type sanitizeHtml from 'sanitize-html';
import { lazyPackage } from '../../lib/lazy-package.ts';
import { holdsScript } from './markup.ts';
import { protectLiquid, restoreLiquid } from './liquid.ts';
import { isSafeUrl } from './urls.ts';

export interface Sanitized {
  html: string;
  /** Link targets the text subset refuses, as written. */
  badHrefs: string[];
  /** Liquid that stood inside a tag the sanitiser rebuilt, and so was lost. */
  lostLiquid: string[];
}

const COLOR_VALUE = [
  /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i,
  /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/i,
  /^[a-z]{3,20}$/i,
];

// Element content dropped along with a removed element (the rest keeps its text).
const NON_TEXT = ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'title', 'iframe', 'object', 'svg'];

function textOptions(badHrefs: string[], restore: (value: string) => string, linkColor?: string) {
  return {
    allowedTags: ['p', 'br', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'span'],
    allowedAttributes: { a: ['href', 'style'], span: ['style'] },
    allowedStyles: { span: { color: COLOR_VALUE }, a: { color: COLOR_VALUE } },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    nonTextTags: NON_TEXT,
    transformTags: {
      b: 'strong',
      i: 'em',
      a: (tagName: string, attribs: sanitizeHtml.Attributes) => {
        const href = attribs.href;
        const attributes: sanitizeHtml.Attributes = {};
        if (href !== undefined) {
          if (isSafeUrl(restore(href).trim())) attributes.href = href.trim();
          else badHrefs.push(restore(href));
        }
        if (linkColor) attributes.style = `color:${linkColor}`;
        return { tagName, attribs: attributes };
      },
    },
  } satisfies sanitizeHtml.IOptions;
}

/** The sanitiser, loaded on its first use: only saving block content needs it. */
const loadSanitizer = lazyPackage<typeof sanitizeHtml>('sanitize-html');

const EXTRA_RAW_TAGS = ['img', 'center', 'font', 'big', 'del', 'ins', 'strike', 'tt'];
const RAW_ATTRIBUTES: sanitizeHtml.IOptions['allowedAttributes'] = {
  '*': ['style', 'class', 'id', 'align', 'valign', 'width', 'height', 'bgcolor', 'dir', 'lang', 'title', 'role'],
  a: ['href', 'name', 'target', 'rel'],
  img: ['src', 'alt', 'border'],
  table: ['border', 'cellpadding', 'cellspacing'],
  td: ['colspan', 'rowspan', 'nowrap'],
  th: ['colspan', 'rowspan', 'nowrap', 'scope'],
  col: ['span'],
  colgroup: ['span'],
  font: ['color', 'face', 'size'],
  ol: ['start', 'type'],
  ul: ['type'],
};
const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp)[;,]/i;

const RAW_OPTIONS: Omit<sanitizeHtml.IOptions, 'allowedTags'> = {
  allowedAttributes: RAW_ATTRIBUTES,
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'cid', 'data'] },
  allowProtocolRelative: false,
  nonTextTags: NON_TEXT,
  transformTags: {
    '*': (tagName, attribs) => {
      const kept = { ...attribs };
      if (kept.style !== undefined && holdsScript(kept.style)) delete kept.style;
      if (
        tagName === 'img' &&
        kept.src !== undefined &&
        /^\s*data:/i.test(kept.src) &&
        !DATA_IMAGE.test(kept.src.trim())
      )
        delete kept.src;
      return { tagName, attribs: kept };
    },
  },
};

function sanitizeWith(html: string, options: (restore: (value: string) => string) => sanitizeHtml.IOptions) {
  const guarded = protectLiquid(html);
  const restore = (value: string) => restoreLiquid(guarded, value).text;
  const cleaned = loadSanitizer()(guarded.text, options(restore));
  const restored = restoreLiquid(guarded, cleaned);
  return { html: restored.text, lostLiquid: restored.missing.map((i) => guarded.tokens[i] ?? '') };
}

/** The rich-text subset of text and footer blocks; links take `linkColor` when given. */
export function sanitizeText(html: string, linkColor?: string): Sanitized {
  const badHrefs: string[] = [];
  const result = sanitizeWith(html, (restore) => textOptions(badHrefs, restore, linkColor));
  return { ...result, badHrefs };
}

/** The permissive cleaning of html blocks. */
export function sanitizeRawHtml(html: string): Sanitized {
  const allowedTags = [...loadSanitizer().defaults.allowedTags, ...EXTRA_RAW_TAGS];
  return { ...sanitizeWith(html, () => ({ ...RAW_OPTIONS, allowedTags })), badHrefs: [] };
}
