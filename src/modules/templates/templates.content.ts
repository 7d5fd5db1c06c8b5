// A template's content compiled for sending: each format's source (HTML, MJML or a block document) compiled to the
// HTML sends render with Liquid, in its layout, for the default and every translation. Compiling happens on save
// (and when a layout it uses changes), never per recipient.
import type { Executor } from '../../db/client.ts';
import type { ContentFormat, TemplateSnapshot, Translations } from '../../db/schema/templates.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import { canonicalLocale, pickLocale } from '../../lib/locale.ts';
import { footerLabels } from '../../lib/i18n/index.ts';
import { compileContent, type LayoutSource } from '../../mail/content/index.ts';
import { contentProblem, findLayoutFor, layoutSourceOf } from '../layouts/index.ts';
import { checkTemplateSyntax } from './templates.syntax.ts';

/** The content a save gives, before compiling (a template's, a campaign's, or a preview's). */
export interface ContentSource {
  subject: string;
  format: ContentFormat;
  /** format html: the HTML source. */
  body?: string | null | undefined;
  /** format mjml: the MJML source; blocks: the block document. */
  content?: unknown;
  layoutId: string | null;
  noLayout: boolean;
  translations: Translations | null;
}

export interface CompiledContent {
  /** format html: the source; mjml and blocks: the compiled HTML. */
  body: string;
  content: unknown;
  /** What sends render: the compiled content in its layout. */
  html: string;
  translations: Translations | null;
  warnings: string[];
}

/** Which layouts wrap which formats: html layouts wrap html; mjml layouts wrap mjml and block documents. */
const fits = (format: ContentFormat, layout: LayoutSource) => (format === 'html') === (layout.format === 'html');

/** The source field of a format: `body` for html, `content` for mjml and blocks. */
export const sourceField = (format: ContentFormat) => (format === 'html' ? 'body' : 'content');

/** A translation's language: footer links in it, or English for languages Herald does not speak. */
const labelsOf = (locale: string) => footerLabels(locale);

function compiled(
  format: ContentFormat,
  source: { body?: string | null | undefined; content?: unknown },
  layout: LayoutSource | null,
  field: string,
  locale: string | null,
) {
  if (format === 'html' && source.content !== undefined && source.content !== null)
    throw validationError(`${field}content`, 'content is for mjml and blocks formats; give body', 'format_mismatch');
  if (format === 'html' && (source.body === undefined || source.body === null))
    throw validationError(`${field}body`, 'body is required', 'required');
  if (format !== 'html' && (source.content === undefined || source.content === null))
    throw validationError(`${field}content`, `content is required for the ${format} format`, 'required');
  try {
    return compileContent({
      format,
      ...(format === 'html' ? { body: source.body ?? '' } : { content: source.content }),
      layout,
      field: `${field}${sourceField(format)}`,
      labels: labelsOf(locale ?? 'en'),
    });
  } catch (error) {
    throw contentProblem(error) ?? error;
  }
}

/**
 * Compiles `source` for sending, checking everything a send needs (translations' tags, the layout, MJML, blocks,
 * Liquid); 422s name the request field (`prefix` before it, as `variants[1].`).
 */
export async function compileSource(opts: {
  db: Executor;
  projectId: string;
  source: ContentSource;
  prefix?: string;
}): Promise<CompiledContent> {
  const { db, projectId, source } = opts;
  const prefix = opts.prefix ?? '';
  const row = await findLayoutFor({ db, projectId, layoutId: source.layoutId, noLayout: source.noLayout });
  if (source.layoutId && !row)
    throw validationError(`${prefix}layoutId`, 'no layout of this project has this id', 'unknown_layout');
  const named = row ? layoutSourceOf(row) : null;
  // The project's default layout wraps only what it fits; a layout the content names must fit (422 otherwise).
  const layout = named && (source.layoutId || fits(source.format, named)) ? named : null;
  const main = compiled(source.format, source, layout, prefix, null);
  const body = source.format === 'html' ? (source.body ?? '') : main.html;
  checkTemplateSyntax(source.subject, main.html, {
    subject: `${prefix}subject`,
    html: `${prefix}${sourceField(source.format)}`,
  });
  const warnings = [...main.warnings];
  const translations: Translations = {};
  for (const [tag, translation] of Object.entries(source.translations ?? {})) {
    const locale = canonicalLocale(tag);
    const field = `${prefix}translations.${tag}.`;
    if (!locale) throw validationError(`${prefix}translations.${tag}`, 'not a language tag (pt-BR, de)', 'locale');
    if (translations[locale]) throw validationError(field.slice(0, -1), 'given twice', 'duplicate_locale');
    const hasContent =
      (translation.body !== undefined && translation.body !== null) ||
      (translation.content !== undefined && translation.content !== null);
    const out = hasContent ? compiled(source.format, translation, layout, field, locale) : null;
    checkTemplateSyntax(translation.subject, out?.html, {
      subject: `${field}subject`,
      html: `${field}${sourceField(source.format)}`,
    });
    if (out) warnings.push(...out.warnings.map((w) => `${locale}: ${w}`));
    translations[locale] = {
      ...(translation.subject !== undefined ? { subject: translation.subject } : {}),
      ...(source.format === 'html' && translation.body ? { body: translation.body } : {}),
      ...(source.format !== 'html' && hasContent ? { content: translation.content } : {}),
      ...(out ? { html: out.html } : {}),
    };
  }
  return {
    body,
    content: source.format === 'html' ? null : source.content,
    html: main.html,
    translations: Object.keys(translations).length > 0 ? translations : null,
    warnings,
  };
}

/** A snapshot's source, as compileSource takes it. */
export const sourceOf = (snapshot: TemplateSnapshot): ContentSource => ({
  subject: snapshot.subject,
  format: snapshot.format,
  body: snapshot.format === 'html' ? snapshot.body : null,
  content: snapshot.content,
  layoutId: snapshot.layoutId,
  noLayout: snapshot.noLayout,
  translations: snapshot.translations,
});

/**
 * The subject and HTML of a message for a reader of `readerLocale` (`pt-BR` reads `pt-BR`, then `pt`, then the
 * default), with the translation used (null: the default).
 */
export function translated(
  message: { subject: string; html: string; translations: Translations | null },
  readerLocale: string | null | undefined,
): { subject: string; html: string; locale: string | null } {
  const locale = pickLocale(readerLocale, Object.keys(message.translations ?? {}));
  const translation = locale ? message.translations?.[locale] : undefined;
  if (!translation) return { subject: message.subject, html: message.html, locale: null };
  return { subject: translation.subject ?? message.subject, html: translation.html ?? message.html, locale };
}

/** A 409 for a save whose content could not be compiled in its layout any more (a layout changed under it). */
export const layoutConflict = (name: string, error: AppError) =>
  new AppError('CONFLICT', `Template ${name} no longer compiles in this layout: ${error.message}`);

/**
 * The stored layout choice after a request: an id, null (none), "default" (the project's default), or, absent,
 * what `current` had.
 */
export function layoutChoiceOf(
  given: string | null | undefined,
  current: { layoutId: string | null; noLayout: boolean } | null | undefined,
): { layoutId: string | null; noLayout: boolean } {
  if (given === undefined) return { layoutId: current?.layoutId ?? null, noLayout: current?.noLayout ?? false };
  if (given === 'default') return { layoutId: null, noLayout: false };
  return { layoutId: given, noLayout: given === null };
}

/** A request's content fields: what it gives of a template's or campaign's content. */
export interface ContentRequest {
  subject?: string | undefined;
  format?: ContentFormat | undefined;
  body?: string | undefined;
  content?: unknown;
  layoutId?: string | null | undefined;
  translations?: Translations | null | undefined;
}

/**
 * The content a save compiles: the request's fields over `current` (a new format starts its source afresh). A
 * `body` for an mjml or blocks format is a 422: it is compiled from `content`.
 */
export function sourceOver(
  input: ContentRequest,
  current: (Omit<ContentSource, 'body'> & { body: string }) | null,
): ContentSource {
  const format = input.format ?? current?.format ?? 'html';
  if (input.body !== undefined && format !== 'html')
    throw validationError('body', 'compiled from content for this format; change content', 'read_only');
  const kept = current !== null && format === current.format ? current : null;
  return {
    subject: input.subject ?? current?.subject ?? '',
    format,
    body: format === 'html' ? (input.body ?? kept?.body) : null,
    content: format === 'html' ? null : input.content !== undefined ? input.content : (kept?.content ?? null),
    ...layoutChoiceOf(input.layoutId, current),
    translations: input.translations !== undefined ? input.translations : (current?.translations ?? null),
  };
}

/** Translations as a request gives them (the compiled HTML stays inside). */
export function translationsView(translations: Translations | null) {
  if (!translations) return null;
  return Object.fromEntries(
    Object.entries(translations).map(([locale, { html: _compiled, ...given }]) => [locale, given]),
  );
}
