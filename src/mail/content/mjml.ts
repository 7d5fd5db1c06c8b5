// MJML → HTML, once on save. Liquid is swapped for placeholders before MJML reads the source and put back after;
// Liquid that stands between sections (`{% if vip %}<mj-section>…`) is wrapped in <mj-raw> so MJML keeps it in
// place. mj-include is refused (templates are single documents: never the file system), and so is markup that
// would run script. MJML's own output (Outlook conditional comments, the responsive media query) is kept whole:
// no minifier, no beautifier; only its indentation is collapsed.
import type mjml2html from 'mjml';
import type { MJMLParseError, MJMLParseResults, MJMLParsingOptions } from 'mjml-core';
import { lazyPackage } from '../../lib/lazy-package.ts';
import { DEFAULT_RENDER_LIMITS, MAX_TEMPLATE_TAGS } from '../render.ts';
import { contentError, ContentError, issue, type ContentIssue } from './errors.ts';
import { protectLiquid, restoreInMessage, restoreLiquid, type ProtectedLiquid } from './liquid.ts';
import { findUnsafeMarkup, lineAt, scanMarkup } from './markup.ts';

/** Characters of MJML source accepted (a layout and its content together), as for a rendered template. */
const MAX_MJML_LENGTH = DEFAULT_RENDER_LIMITS.maxSourceLength;
/**
 * MJML elements inside one another. Real documents nest under 10 (mjml, body, wrapper, section, group, column,
 * element); MJML walks the tree recursively, so a deeper one is refused before it reads it.
 */
const MAX_NESTING = 50;
/**
 * MJML elements in a document. MJML takes 0.3–0.6 ms of CPU per element on the caller's thread (social icons and
 * sections cost the most), so at most about 0.8 s; a large newsletter holds 100–300.
 */
export const MAX_MJML_ELEMENTS = 1_500;

/** The compiler, loaded on the first MJML compile: most processes (sending, tracking) never compile one. */
const loadMjml = lazyPackage<typeof mjml2html>('mjml');

const OPTIONS: MJMLParsingOptions = {
  validationLevel: 'strict',
  ignoreIncludes: true,
  keepComments: true,
  minify: false,
  beautify: false,
};

/** Elements whose content MJML copies as written: Liquid inside them needs no help. */
const ENDING_TAGS = new Set([
  'mj-text',
  'mj-button',
  'mj-raw',
  'mj-table',
  'mj-navbar-link',
  'mj-accordion-title',
  'mj-accordion-text',
  'mj-social-element',
  'mj-carousel-image',
  'mj-style',
  'mj-title',
  'mj-preview',
  'mj-breakpoint',
]);

/** Where an error line of the compiled source points: this field and line by default. */
export type LineLocator = (line: number) => { field: string; line: number };

/** Whether `source` is a whole MJML document (an `<mjml>` root), after any XML prolog and comments. */
export function isMjmlDocument(source: string): boolean {
  const start = source.replace(/^(?:\uFEFF|\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/, '');
  return /^<mjml[\s>]/i.test(start);
}

interface Structure {
  /** The source with Liquid between elements wrapped in <mj-raw>. */
  text: string;
  /** Index of the first element nested deeper than MAX_NESTING, or -1. */
  tooDeepAt: number;
  /** Index of the first element past MAX_MJML_ELEMENTS, or -1. */
  tooManyAt: number;
}

/** Wraps each placeholder standing outside the elements whose content MJML keeps in <mj-raw>; measures the tree. */
function prepareStructure(text: string, pattern: () => RegExp): Structure {
  let raw = 0;
  let nesting = 0;
  let elements = 0;
  let tooDeepAt = -1;
  let tooManyAt = -1;
  let out = '';
  let from = 0;
  scanMarkup(text, {
    tag: (tag) => {
      if (raw > 0 && !ENDING_TAGS.has(tag.name)) return;
      if (!tag.closing && (tag.name === 'mjml' || tag.name.startsWith('mj-')) && ++elements > MAX_MJML_ELEMENTS) {
        if (tooManyAt === -1) tooManyAt = tag.start;
      }
      if (tag.selfClosing) return;
      if (ENDING_TAGS.has(tag.name)) raw = Math.max(0, raw + (tag.closing ? -1 : 1));
      else if (tag.name === 'mjml' || tag.name.startsWith('mj-')) {
        nesting = Math.max(0, nesting + (tag.closing ? -1 : 1));
        if (nesting > MAX_NESTING && tooDeepAt === -1) tooDeepAt = tag.start;
      }
    },
    text: (start, end) => {
      if (raw > 0) return;
      out += text.slice(from, start) + text.slice(start, end).replace(pattern(), (p) => `<mj-raw>${p}</mj-raw>`);
      from = end;
    },
  });
  return { text: out + text.slice(from), tooDeepAt, tooManyAt };
}

/**
 * MJML indents its output generously; a run of white space with a line break in it becomes one line break, which
 * HTML reads the same, unless something keeps white space as written (pre, textarea, a white-space style).
 */
function collapseWhitespace(html: string): string {
  if (/<pre\b|<textarea\b|white-space\s*:\s*pre/i.test(html)) return html;
  return html.replace(/[ \t]*\n\s*/g, '\n');
}

function runMjml(source: string): MJMLParseResults {
  // mjml 4 compiles synchronously; its installed typings describe mjml 5, which returns a promise.
  const result = loadMjml()(source, OPTIONS) as unknown as MJMLParseResults | Promise<unknown>;
  if (result instanceof Promise) throw new Error('mjml returned a promise: mjml 4 (synchronous) is required');
  return result;
}

function validationErrors(err: unknown): MJMLParseError[] | null {
  const errors = (err as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as MJMLParseError[]) : null;
}

/** Refuses the source before MJML reads it: unsafe markup, mj-include, a tree too deep or too large. */
function checkSource(guarded: ProtectedLiquid, structure: Structure, locate: LineLocator): void {
  const { text, tooDeepAt, tooManyAt } = structure;
  const issues: ContentIssue[] = [];
  const at = (index: number) => locate(guarded.originalLine(lineAt(text, index)));
  if (tooDeepAt !== -1) {
    const { field, line } = at(tooDeepAt);
    issues.push(issue(field, 'mjml_invalid', `MJML elements nest more than ${MAX_NESTING} deep`, line));
  }
  if (tooManyAt !== -1) {
    const { field, line } = at(tooManyAt);
    const limit = MAX_MJML_ELEMENTS.toLocaleString('en-US');
    issues.push(issue(field, 'too_many_elements', `MJML holds more than ${limit} elements; this one is past it`, line));
  }
  for (const finding of findUnsafeMarkup(text)) {
    const { field, line } = at(finding.index);
    issues.push(issue(field, 'unsafe_content', finding.message, line));
  }
  const include = /<mj-include\b/i.exec(text);
  if (include) {
    const { field, line } = at(include.index);
    issues.push(issue(field, 'mjml_invalid', 'mj-include is not supported: a template is one document', line));
  }
  if (issues.length > 0) throw new ContentError(issues);
}

/**
 * Compiles a whole MJML document to HTML with its Liquid intact. Errors name `field` and the source line, or
 * the field and line `locate` gives (a layout and its content compiled together).
 */
export function compileMjml(source: string, field = 'content', locate?: LineLocator): string {
  const where: LineLocator = locate ?? ((line) => ({ field, line }));
  if (source.length > MAX_MJML_LENGTH) {
    throw contentError(field, 'too_long', `MJML is longer than ${MAX_MJML_LENGTH.toLocaleString('en-US')} characters`);
  }
  if (!isMjmlDocument(source) || !/<\/mjml>\s*$/i.test(source)) {
    throw contentError(field, 'mjml_syntax', 'not an MJML document: it must start with <mjml> and end with </mjml>');
  }
  const guarded = protectLiquid(source);
  if (guarded.tokens.length > MAX_TEMPLATE_TAGS) {
    const limit = MAX_TEMPLATE_TAGS.toLocaleString('en-US');
    throw contentError(field, 'too_long', `MJML holds more than ${limit} Liquid tags and outputs`);
  }
  const structure = prepareStructure(guarded.text, guarded.pattern);
  checkSource(guarded, structure, where);
  const { text } = structure;
  let result: MJMLParseResults;
  try {
    result = runMjml(text);
  } catch (err) {
    const errors = validationErrors(err);
    if (!errors) {
      const message =
        err instanceof RangeError ? 'the MJML is nested too deeply' : err instanceof Error ? err.message : String(err);
      throw contentError(field, 'mjml_syntax', restoreInMessage(guarded, message));
    }
    throw new ContentError(
      errors.map((e) => {
        const at = where(guarded.originalLine(e.line));
        return issue(at.field, 'mjml_invalid', restoreInMessage(guarded, e.message), at.line);
      }),
    );
  }
  const restored = restoreLiquid(guarded, collapseWhitespace(result.html));
  if (restored.missing.length > 0) {
    throw new ContentError(
      restored.missing.map((i) => {
        const at = where(guarded.tokenLine(i));
        const token = guarded.tokens[i] ?? '';
        const message =
          `the Liquid ${token.length > 60 ? `${token.slice(0, 57)}…` : token} is dropped by MJML where it stands; ` +
          'put it inside <mj-text> or <mj-raw>, or between sections';
        return issue(at.field, 'mjml_liquid', message, at.line);
      }),
    );
  }
  return restored.text;
}
