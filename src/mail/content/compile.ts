// Content formats and layouts, compiled once on save to the HTML (with its Liquid) rendered per recipient.
//
// Formats: `html` is the Liquid HTML body as written (no sanitising: a developer's HTML is theirs); `mjml` is an
// MJML source; `blocks` is a block document (blocks.ts), compiled to MJML, then to HTML.
//
// Layouts. A layout holds exactly one `{{ content }}` (spaces inside the braces allowed), where the content goes.
// - An `html` layout wraps `html` content only: the body replaces `{{ content }}`, as a string.
// - An `mjml` layout wraps `mjml` and `blocks` content at the MJML level: its `{{ content }}` stands inside
//   <mj-body> where sections go; the content's sections replace it and the whole is compiled once, so the
//   responsive media query and Outlook's conditional comments cover layout and content alike.
// - `mjml` content that is a whole document (an <mjml> root) is not wrapped: it compiles alone and a warning says
//   the layout was not applied. A fragment (sections only) needs an mjml layout.
// - `blocks` content in a layout: the layout owns the page, so the document's width and page background are the
//   layout's (a warning says so when the document sets them); its content colour, font, text and link colours
//   are set on its own elements and apply to them only.
// - A layout of the other kind (html layout with mjml or blocks content, mjml layout with html content) is an
//   error, `layout_format`.
// Without a layout: html is returned as it is; mjml must be a whole document; blocks become a whole document.
import { parseBlockDocument } from './blocks-parse.ts';
import { DEFAULT_RENDER_LIMITS } from '../render.ts';
import { blocksToMjml, blocksToSections, DEFAULT_LABELS, type FooterLabels } from './blocks-mjml.ts';
import { contentError } from './errors.ts';
import { compileMjml as compileMjmlSource, isMjmlDocument, type LineLocator } from './mjml.ts';

export type ContentFormat = 'html' | 'mjml' | 'blocks';
export type LayoutFormat = 'html' | 'mjml';

export interface LayoutSource {
  format: LayoutFormat;
  source: string;
}

export interface CompileInput {
  format: ContentFormat;
  /** format html: the HTML (Liquid) source. */
  body?: string;
  /** format mjml: the MJML source; format blocks: the block document, validated here. */
  content?: unknown;
  layout?: LayoutSource | null;
  /** Prefix of error paths: 'content' (default), 'body', 'translations.pt-BR.content', 'variants[1].content'… */
  field?: string;
  /** The footer block's default link texts. */
  labels?: FooterLabels;
}

export interface Compiled {
  html: string;
  warnings: string[];
}

/** The tag a layout holds once, where the content goes. */
export const CONTENT_TAG = /\{\{\s*content\s*\}\}/;

const LAYOUT_FIELD = 'layout';
/** What stands for the content when a layout is checked alone. */
const EMPTY_SECTION = '<mj-section></mj-section>';
/** Compiled HTML longer than a send renders is refused on save rather than at every send. */
const MAX_COMPILED_LENGTH = DEFAULT_RENDER_LIMITS.maxSourceLength;

function compileMjml(source: string, field: string, locate?: LineLocator): string {
  const html = compileMjmlSource(source, field, locate);
  if (html.length > MAX_COMPILED_LENGTH) {
    const [size, limit] = [html.length, MAX_COMPILED_LENGTH].map((n) => n.toLocaleString('en-US'));
    throw contentError(field, 'too_long', `the compiled HTML is ${size} characters; a send renders at most ${limit}`);
  }
  return html;
}

function countContentTags(source: string): number {
  return source.match(new RegExp(CONTENT_TAG.source, 'g'))?.length ?? 0;
}

/** Refuses a layout without exactly one content tag, or an mjml layout without an <mjml> root. */
function checkLayoutShape(layout: LayoutSource, field: string): void {
  const found = countContentTags(layout.source);
  if (found !== 1) {
    throw contentError(
      field,
      'layout_content_tag',
      `a layout holds exactly one {{ content }}, where the content goes; found ${found}`,
    );
  }
  if (layout.format === 'mjml' && !isMjmlDocument(layout.source)) {
    throw contentError(field, 'mjml_syntax', 'an mjml layout is a whole document: it must start with <mjml>');
  }
}

/**
 * Refuses a layout without exactly one `{{ content }}`, an mjml layout that does not compile, and one whose tag
 * does not stand where sections go (inside mj-text or mj-raw, MJML would copy the sections as text).
 */
export function checkLayout(layout: LayoutSource, field = LAYOUT_FIELD): void {
  checkLayoutShape(layout, field);
  if (layout.format !== 'mjml') return;
  if (compileMjml(fillLayout(layout.source, EMPTY_SECTION), field).includes(EMPTY_SECTION)) {
    throw contentError(
      field,
      'layout_content_tag',
      '{{ content }} must stand where sections go, directly inside <mj-body> (or mj-wrapper), not in mj-text or mj-raw',
    );
  }
}

/** The layout with its one content tag replaced by `content` (taken as it is: no `$&` patterns). */
function fillLayout(layout: string, content: string): string {
  return layout.replace(CONTENT_TAG, () => content);
}

/** Error lines of a layout filled with content point into the content or into the layout. */
function locator(layout: string, content: string, field: string, layoutField: string): LineLocator {
  const match = CONTENT_TAG.exec(layout);
  const tagLine = layout.slice(0, match?.index ?? 0).split('\n').length;
  const contentLines = content.split('\n').length;
  return (line) => {
    if (line < tagLine) return { field: layoutField, line };
    if (line < tagLine + contentLines) return { field, line: line - tagLine + 1 };
    return { field: layoutField, line: line - contentLines + 1 };
  };
}

function requireLayoutFormat(layout: LayoutSource, format: ContentFormat, wanted: LayoutFormat): void {
  if (layout.format === wanted) return;
  throw contentError(
    LAYOUT_FIELD,
    'layout_format',
    `${format} content takes an ${wanted} layout; this layout is ${layout.format}`,
  );
}

function asSource(value: unknown, field: string, format: ContentFormat): string {
  if (typeof value === 'string') return value;
  throw contentError(field, 'invalid_content', `${format} content must be a string`);
}

function compileMjmlContent(source: string, field: string, layout: LayoutSource | null): Compiled {
  if (isMjmlDocument(source)) {
    const warnings = layout ? ['the layout was not applied: the content is a whole <mjml> document'] : [];
    return { html: compileMjml(source, field), warnings };
  }
  if (!layout) {
    throw contentError(
      field,
      'mjml_fragment',
      'this MJML is a fragment (no <mjml> root): give a whole <mjml> document, or use an mjml layout',
    );
  }
  checkLayoutShape(layout, LAYOUT_FIELD);
  const locate = locator(layout.source, source, field, LAYOUT_FIELD);
  return { html: compileMjml(fillLayout(layout.source, source), field, locate), warnings: [] };
}

function compileBlocks(input: CompileInput, field: string, layout: LayoutSource | null): Compiled {
  const doc = parseBlockDocument(input.content, field);
  const labels = input.labels ?? DEFAULT_LABELS;
  if (!layout) return { html: compileMjml(blocksToMjml(doc, field, labels), field), warnings: [] };
  checkLayoutShape(layout, LAYOUT_FIELD);
  const warnings: string[] = [];
  const ignored = (['width', 'backgroundColor'] as const).filter((key) => doc.settings?.[key] !== undefined);
  if (ignored.length > 0) {
    warnings.push(`settings ${ignored.join(' and ')} not applied: the layout sets the page`);
  }
  const sections = blocksToSections(doc, field, labels);
  const locate = locator(layout.source, sections, field, LAYOUT_FIELD);
  const html = compileMjml(fillLayout(layout.source, sections), field, locate);
  return { html, warnings };
}

/** Compiles a template's content, in its layout if any, to the HTML stored and rendered per recipient. */
export function compileContent(input: CompileInput): Compiled {
  const field = input.field ?? 'content';
  const layout = input.layout ?? null;
  switch (input.format) {
    case 'html': {
      const body = asSource(input.body ?? '', field, 'html');
      if (!layout) return { html: body, warnings: [] };
      requireLayoutFormat(layout, 'html', 'html');
      checkLayoutShape(layout, LAYOUT_FIELD);
      return { html: fillLayout(layout.source, body), warnings: [] };
    }
    case 'mjml':
      if (layout) requireLayoutFormat(layout, 'mjml', 'mjml');
      return compileMjmlContent(asSource(input.content, field, 'mjml'), field, layout);
    case 'blocks':
      if (layout) requireLayoutFormat(layout, 'blocks', 'mjml');
      return compileBlocks(input, field, layout);
  }
}
