// The language of the pages people reach from a link Herald mailed or printed (setup, invitation, password reset):
// the first of the browser's languages with a catalogue here, else English; and the texts in it.
import { createElement, Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
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

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/**
 * The first of the browser's language tags, best first, whose language has a catalogue (`pt-BR` → `pt`, `de-CH` →
 * `de`); English when none has.
 */
export function pickLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const language = tag.split('-')[0]!.toLowerCase();
    if (isLanguage(language)) return language;
  }
  return 'en';
}

/** The text of `key` in `lang` with its `{name}` parameters filled in (React escapes it where it is shown). */
export function t(lang: Language, key: MessageKey, params: Record<string, string> = {}): string {
  return catalogues[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? params[name]! : whole,
  );
}

/** The text of `key` in `lang` with elements (a link, a bold address) for its `{name}` parameters. */
export function tx(lang: Language, key: MessageKey, params: Record<string, ReactNode>): ReactNode {
  return catalogues[lang][key]
    .split(/\{(\w+)\}/)
    .map((part, i) =>
      createElement(Fragment, { key: i }, i % 2 === 1 && Object.hasOwn(params, part) ? params[part] : part),
    );
}

/** The browser's languages, best first. */
const browserLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

/**
 * The language of the page that calls it, from the browser's languages, with `t` and `tx` bound to it. While the page
 * is shown, the document's `<html lang>` says that language (and what it said before once the page is gone).
 */
export function useLocale() {
  const [lang] = useState(() => pickLanguage(browserLanguages()));
  useEffect(() => {
    const root = document.documentElement;
    const before = root.lang;
    root.lang = lang;
    return () => {
      root.lang = before;
    };
  }, [lang]);
  return useMemo(
    () => ({
      lang,
      t: (key: MessageKey, params?: Record<string, string>) => t(lang, key, params),
      tx: (key: MessageKey, params: Record<string, ReactNode>) => tx(lang, key, params),
    }),
    [lang],
  );
}

/** What `useLocale` gives a page, for the parts of it that render apart. */
export type PageLocale = ReturnType<typeof useLocale>;
