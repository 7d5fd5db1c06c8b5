// Liquid rendering of templates: HTML-escaped output in bodies, plain subjects, DoS limits, and a
// plain-text part derived from the HTML.
import { Liquid, LiquidError } from 'liquidjs';
import type { Template } from 'liquidjs';
import { compile } from 'html-to-text';
import { rewriteAttributes, urlScheme } from './html-attrs.ts';
import { mapRewrittenIndex, rewriteFallbacks } from './render-fallback.ts';
import { threadCpuMs } from '../lib/thread-cpu.ts';

export interface RenderLimits {
  /** Characters of template source accepted by the parser. */
  maxSourceLength: number;
  /** Wall-clock time of one field's render, in ms. */
  renderTimeoutMs: number;
  /** liquidjs allocation budget (array/string building in filters and loops). */
  memoryLimit: number;
  /** Characters of rendered HTML (and of the derived text). */
  maxHtmlLength: number;
  /** Characters of the rendered subject. */
  maxSubjectLength: number;
}

export const DEFAULT_RENDER_LIMITS: Readonly<RenderLimits> = Object.freeze({
  maxSourceLength: 1_000_000,
  renderTimeoutMs: 500,
  memoryLimit: 20_000_000,
  maxHtmlLength: 1_000_000,
  maxSubjectLength: 1_000,
});

export type TemplateField = 'subject' | 'html' | 'text';

export class TemplateError extends Error {
  override name = 'TemplateError';
  constructor(
    /** What went wrong, without the field and position the message adds. */
    readonly detail: string,
    /** syntax: does not parse (→ 422 with line/column); render: failed at run time; limit: a cap was hit. */
    readonly kind: 'syntax' | 'render' | 'limit',
    readonly field: TemplateField,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line === undefined ? `${field}: ${detail}` : `${field}: ${detail} (line ${line}, column ${column})`);
  }

  /**
   * The render ran out of time. Unlike the other limits this depends on how busy the machine is, so a delivery
   * tries again later rather than failing the email at once.
   */
  get timedOut(): boolean {
    return this.kind === 'limit' && /template render limit exceeded/i.test(this.detail);
  }
}

export interface RenderInput {
  subject: string;
  html: string;
  /** Optional text template; derived from the rendered HTML when absent. */
  text?: string;
  variables: Record<string, unknown>;
  limits?: Partial<RenderLimits>;
}

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

const UNSUPPORTED_TAGS = ['include', 'render', 'layout'] as const;

function createEngine(escapeHtml: boolean): Liquid {
  const engine = new Liquid({
    outputEscape: escapeHtml ? 'escape' : undefined,
    ownPropertyOnly: true,
    strictFilters: true,
    templates: {}, // in-memory lookup only: never the file system
    timezoneOffset: 0,
    jsTruthy: false,
  });
  // Templates are single documents; refuse file-loading tags at parse time rather than at send time.
  for (const name of UNSUPPORTED_TAGS) {
    engine.registerTag(name, {
      parse() {
        throw new Error(`the "${name}" tag is not supported`);
      },
      render() {},
    });
  }
  if (escapeHtml) {
    // An explicit `| escape` must not be escaped a second time by outputEscape.
    for (const name of ['escape', 'escape_once'] as const) {
      const impl = engine.filters[name];
      const handler = typeof impl === 'function' ? impl : impl?.handler;
      if (handler) engine.registerFilter(name, { handler, raw: true });
    }
  }
  return engine;
}

const htmlEngine = createEngine(true);
const plainEngine = createEngine(false);

// Campaigns render one template per recipient: keep parsed ASTs, bounded in count and in the characters of their
// sources together (a 100 KB newsletter is a common size, and parsing it again for every recipient costs more than
// rendering it). Keyed by the source itself, each engine's parse beside the other's, so a lookup builds no new string.
const PARSE_CACHE_SIZE = 256;
const PARSE_CACHE_MAX_CHARS = 4_000_000;
const parseCache = new Map<string, Map<Liquid, Template[]>>();
let parseCacheChars = 0;

function cachedParse(engine: Liquid, source: string): Template[] | undefined {
  const entry = parseCache.get(source);
  if (!entry) return undefined;
  parseCache.delete(source); // re-insert: most recently used last
  parseCache.set(source, entry);
  return entry.get(engine);
}

function cacheParsed(engine: Liquid, source: string, templates: Template[]): void {
  if (source.length > PARSE_CACHE_MAX_CHARS / 4) return;
  const entry = parseCache.get(source);
  if (entry) {
    entry.set(engine, templates);
    return;
  }
  parseCache.set(source, new Map([[engine, templates]]));
  parseCacheChars += source.length;
  while (parseCache.size > PARSE_CACHE_SIZE || parseCacheChars > PARSE_CACHE_MAX_CHARS) {
    const oldest = parseCache.keys().next().value;
    if (oldest === undefined) break;
    parseCache.delete(oldest);
    parseCacheChars -= oldest.length;
  }
}

function limitsOf(partial?: Partial<RenderLimits>): RenderLimits {
  return { ...DEFAULT_RENDER_LIMITS, ...partial };
}

function positionOf(original: string, index: number): { line: number; column: number } {
  const before = original.slice(0, Math.max(0, Math.min(index, original.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** liquidjs's message for a time or memory limit, whichever way it arrives. */
const LIMIT_EXCEEDED = /limit exceeded/i;

function toTemplateError(
  err: unknown,
  field: TemplateField,
  original: string,
  rewritten: ReturnType<typeof rewriteFallbacks>,
): TemplateError {
  if (err instanceof TemplateError) return err;
  if (err instanceof LiquidError) {
    const message = (err.originalError?.message ?? err.message).replace(/, line:\d+, col:\d+$/, '');
    const kind = LIMIT_EXCEEDED.test(message) ? 'limit' : err.name === 'RenderError' ? 'render' : 'syntax';
    const begin = (err as { token?: { begin?: number } }).token?.begin;
    if (typeof begin === 'number') {
      const { line, column } = positionOf(original, mapRewrittenIndex(rewritten, begin));
      return new TemplateError(message, kind, field, line, column);
    }
    return new TemplateError(message, kind, field);
  }
  // liquidjs checks its time limit between a template's top-level nodes outside its own error wrapping: that
  // time-out arrives as a bare assertion, and is a limit like any other.
  const message = err instanceof Error ? err.message : String(err);
  return new TemplateError(message, LIMIT_EXCEEDED.test(message) ? 'limit' : 'render', field);
}

/**
 * Liquid tags and outputs (`{%`, `{{`) a template may hold. liquidjs's parser takes time that grows with the square
 * of their number (200,000 took ~19 s); real templates hold hundreds.
 */
export const MAX_TEMPLATE_TAGS = 10_000;

/** Whether `source` opens more than `max` tags or outputs, counted without allocating. */
function tooManyTags(source: string, max: number): boolean {
  let count = 0;
  for (let at = source.indexOf('{'); at !== -1; at = source.indexOf('{', at + 1)) {
    const next = source.charCodeAt(at + 1);
    if ((next === 123 /* { */ || next === 37) /* % */ && ++count > max) return true;
  }
  return false;
}

/**
 * The parsed template, or null for a source without Liquid (no `{`), which renders to itself: subjects and bodies
 * without a variable, and the empty fields of a message, skip the engine.
 */
function parse(engine: Liquid, source: string, field: TemplateField, limits: RenderLimits): Template[] | null {
  if (source.length > limits.maxSourceLength) {
    throw new TemplateError(`template is longer than ${limits.maxSourceLength} characters`, 'limit', field);
  }
  if (!source.includes('{')) return null;
  if (tooManyTags(source, MAX_TEMPLATE_TAGS)) {
    throw new TemplateError(
      `template holds more than ${MAX_TEMPLATE_TAGS} Liquid tags and outputs ({{ … }}, {% … %})`,
      'limit',
      field,
    );
  }
  const cached = cachedParse(engine, source);
  if (cached) return cached;
  const rewritten = rewriteFallbacks(source);
  let templates: Template[];
  try {
    templates = engine.parse(rewritten.source);
  } catch (err) {
    throw toTemplateError(err, field, source, rewritten);
  }
  cacheParsed(engine, source, templates);
  return templates;
}

// Called when a template is saved, so authors get a 422 with line and column instead of a failed send.
export function validateTemplate(
  source: string,
  options: { field?: TemplateField; limits?: Partial<RenderLimits> } = {},
): void {
  const field = options.field ?? 'html';
  parse(field === 'html' ? htmlEngine : plainEngine, source, field, limitsOf(options.limits));
}

/**
 * Tries of a render that ran out of its wall-clock time while its thread ran for less than half of that time: the
 * thread was not run (a loaded machine, a long garbage collection), which is no fault of the template.
 */
const STALLED_TRIES = 3;

/**
 * Renders again a field that ran out of time, measuring the thread's CPU time: a try that ran out of time again
 * while its thread ran for at least half the limit is the template's own time and fails; one that the machine
 * stalled is tried again. Where the thread's CPU time is unknown, the first time-out stands.
 */
function renderWhileStalled(render: () => string, limitMs: number, timedOut: TemplateError): string {
  let last = timedOut;
  for (let n = 0; n < STALLED_TRIES; n++) {
    const started = threadCpuMs();
    if (started === null) break;
    try {
      return render();
    } catch (error) {
      if (!(error instanceof TemplateError && error.timedOut)) throw error;
      last = error;
      if (threadCpuMs()! - started >= limitMs / 2) break;
    }
  }
  throw last;
}

function renderField(
  source: string,
  field: TemplateField,
  variables: Record<string, unknown>,
  limits: RenderLimits,
): string {
  const engine = field === 'html' ? htmlEngine : plainEngine;
  const templates = parse(engine, source, field, limits);
  const render = () => {
    if (templates === null) return source;
    try {
      return engine.renderSync(templates, variables, {
        renderLimit: limits.renderTimeoutMs,
        memoryLimit: limits.memoryLimit,
      }) as string;
    } catch (err) {
      throw toTemplateError(err, field, source, rewriteFallbacks(source));
    }
  };
  let output: string;
  try {
    output = render();
  } catch (error) {
    if (!(error instanceof TemplateError && error.timedOut)) throw error;
    output = renderWhileStalled(render, limits.renderTimeoutMs, error);
  }
  const max = field === 'subject' ? limits.maxSubjectLength : limits.maxHtmlLength;
  if (output.length > max) {
    throw new TemplateError(`rendered ${field} is longer than ${max} characters`, 'limit', field);
  }
  return output;
}

const SAFE_HREF_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const SAFE_SRC_SCHEMES = new Set(['http', 'https', 'cid']);

// Escaping does not stop `href="{{url}}"` with url = javascript:…; neutralise unsafe schemes.
export function neutraliseUnsafeUrls(html: string): string {
  return rewriteAttributes(
    html,
    ['a', 'area', 'img', 'form', 'iframe', 'link'],
    ['href', 'src', 'action'],
    ({ name, value }) => {
      const scheme = urlScheme(value);
      if (scheme === null) return null;
      if (name === 'href' ? SAFE_HREF_SCHEMES.has(scheme) : SAFE_SRC_SCHEMES.has(scheme)) return null;
      if (name === 'src' && /^data:image\/(png|gif|jpe?g|webp);/i.test(value.trim())) return null;
      return name === 'href' ? '#' : '';
    },
  );
}

// Compiled once: html-to-text's `convert` would rebuild its selector tables for every message.
const toText = compile({
  wordwrap: 78,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});

// The text/plain alternative: what a text-only client or a spam filter reads.
export function htmlToText(html: string): string {
  return toText(html).trim();
}

// The text part of a rendered body; HTML nested deeper than html-to-text can recurse is the body's fault (422, not
// 500).
function derivedText(html: string): string {
  try {
    return htmlToText(html);
  } catch (err) {
    if (err instanceof RangeError)
      throw new TemplateError('the HTML is nested too deeply to derive its text part', 'limit', 'html');
    throw err;
  }
}

/**
 * Renders the subject alone, as renderTemplate renders it (a campaign's fan-out fixes each recipient's subject): plain
 * text on one line, line breaks and NULs made spaces.
 */
export function renderSubject(
  source: string,
  variables: Record<string, unknown>,
  limits?: Partial<RenderLimits>,
): string {
  return (
    renderField(source, 'subject', variables, limitsOf(limits))
      // eslint-disable-next-line no-control-regex
      .replace(/[\r\n\u0000]+/g, ' ')
      .trim()
  );
}

// Renders subject (plain), HTML (escaped by default) and the text part for one recipient.
export function renderTemplate(input: RenderInput): RenderedMessage {
  const limits = limitsOf(input.limits);
  const subject = renderSubject(input.subject, input.variables, limits);
  const html = neutraliseUnsafeUrls(renderField(input.html, 'html', input.variables, limits));
  const text = input.text !== undefined ? renderField(input.text, 'text', input.variables, limits) : derivedText(html);
  if (text.length > limits.maxHtmlLength) {
    throw new TemplateError(`rendered text is longer than ${limits.maxHtmlLength} characters`, 'limit', 'text');
  }
  return { subject, html, text };
}

// Renders one plain Liquid string (no HTML escaping), for text that is not a message: webhook URLs, headers, bodies.
export function renderText(source: string, variables: Record<string, unknown>, limits?: Partial<RenderLimits>): string {
  return renderField(source, 'text', variables, limitsOf(limits));
}
