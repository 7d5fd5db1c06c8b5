// The languages of hosted pages and email footers: which one a page speaks, and its texts.
import { acceptedLocales, pickLocale } from '../locale.ts';
import { de } from './de.ts';
import { en, type Catalogue, type MessageKey } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';

export type { Catalogue, MessageKey } from './en.ts';

/** Every language with a catalogue, English (the fallback) first. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

export const catalogues: Record<Language, Catalogue> = { en, de, fr, es, pt, it, nl };

/** The supported language a tag reads (`pt-BR` → `pt`, `de-CH` → `de`), or null. */
export function supportedLanguage(locale: string | null | undefined): Language | null {
  return pickLocale(locale, LANGUAGES) as Language | null;
}

/**
 * The language of a page: the contact's (for a page about a contact) when there is a catalogue for it, else the first
 * language of the browser's Accept-Language that has one, else English.
 */
export function pageLocale(opts: {
  contactLocale?: string | null | undefined;
  acceptLanguage?: string | undefined;
}): Language {
  const fromContact = supportedLanguage(opts.contactLocale);
  if (fromContact) return fromContact;
  for (const tag of acceptedLocales(opts.acceptLanguage)) {
    const language = supportedLanguage(tag);
    if (language) return language;
  }
  return 'en';
}

/**
 * The text of `key` in `lang` with its `{name}` parameters filled in as given: the caller escapes them for where the
 * text goes (HTML for the pages); the texts themselves are trusted and may hold markup.
 */
export function t(lang: Language, key: MessageKey, params: Record<string, string> = {}): string {
  return catalogues[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? params[name]! : whole,
  );
}

/** The labels of an email footer's links in the language of `locale` (any tag; English when unsupported). */
export function footerLabels(locale: string | null | undefined): { unsubscribe: string; manage: string } {
  const lang = supportedLanguage(locale) ?? 'en';
  return { unsubscribe: t(lang, 'footer.unsubscribe'), manage: t(lang, 'footer.manage') };
}
