// A message as the editor holds it (subject, format, source, layout, translations as a list of tabs), and the
// conversions from and to the API's content fields, shared by templates and campaigns.
import type { ContentInput, VersionContent } from '../api.ts';
import {
  canonicalJson,
  openContent,
  starterSource,
  type ContentFormat,
  type LayoutChoice,
  type Source,
  type Translations,
} from './content.ts';

/** One translation: its subject (empty: the default's) and its source (null: the default content). */
export interface TranslationForm {
  tag: string;
  subject: string;
  source: Source | null;
}

export interface MessageForm {
  subject: string;
  format: ContentFormat;
  source: Source;
  layoutId: LayoutChoice;
  translations: TranslationForm[];
}

type Content = Pick<VersionContent, 'subject' | 'format' | 'body' | 'content' | 'translations'> & {
  layoutId?: string | null;
};

const hasKey = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** A version's (or campaign's) content as the editor opens it. */
export function toMessageForm(v: Content): MessageForm {
  const open = (body: string | undefined, content: unknown): Source => ({
    body: v.format === 'html' ? (body ?? '') : '',
    content: openContent(v.format, content),
  });
  return {
    subject: v.subject,
    format: v.format,
    source: open(v.body, v.content),
    layoutId: hasKey(v, 'layoutId') ? v.layoutId : undefined,
    translations: Object.entries(v.translations ?? {}).map(([tag, t]) => ({
      tag,
      subject: t.subject ?? '',
      source: (v.format === 'html' ? t.body : t.content) ? open(t.body, t.content) : null,
    })),
  };
}

/** A new message of a format. */
export const blankMessage = (format: ContentFormat, subject = ''): MessageForm => ({
  subject,
  format,
  source: starterSource(format),
  layoutId: undefined,
  translations: [],
});

/** One source as the API takes it: `body` for html, `content` for mjml and blocks. */
const sourceFields = (format: ContentFormat, s: Source) =>
  format === 'html' ? { body: s.body } : { content: s.content };

/** The translations as the API takes them (null: none). */
export function toTranslations(form: MessageForm): Translations | null {
  if (form.translations.length === 0) return null;
  return Object.fromEntries(
    form.translations.map((t) => [
      t.tag,
      { ...(t.subject.trim() ? { subject: t.subject } : {}), ...(t.source ? sourceFields(form.format, t.source) : {}) },
    ]),
  );
}

/** The content fields of a request; the layout only when one is chosen (absent keeps the project's default). */
export function toContentInput(form: MessageForm): ContentInput {
  return {
    subject: form.subject,
    format: form.format,
    ...sourceFields(form.format, form.source),
    ...(form.layoutId !== undefined ? { layoutId: form.layoutId } : {}),
    translations: toTranslations(form),
  };
}

/** Whether two forms say the same (what a save would change). */
export const sameMessage = (a: MessageForm, b: MessageForm) =>
  canonicalJson(toContentInput(a)) === canonicalJson(toContentInput(b));

/** A language tag as written canonically (`pt-br` → `pt-BR`), or null when it is not one. */
export function canonicalTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? null;
  } catch {
    return null;
  }
}
