// Languages of contacts, translations and hosted pages: BCP 47 tags of a language, an optional script and an
// optional region (`pt`, `pt-BR`, `zh-Hant-TW`), in their canonical case.
import { z } from 'zod';

const SHAPE = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/;
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The canonical form of a language tag (`pt-br` → `pt-BR`), or null when it is not a language this machine knows
 * with at most a script and a region (`xx-INVALID`, `en_US`, private or grandfathered tags).
 */
export function canonicalLocale(tag: string): string | null {
  if (tag.length > 35) return null;
  let canonical: string;
  try {
    [canonical = ''] = Intl.getCanonicalLocales(tag);
  } catch {
    return null;
  }
  if (!SHAPE.test(canonical)) return null;
  const [language, ...rest] = canonical.split('-');
  if (!languageNames.of(language!)) return null;
  const region = rest.find((part) => /^([A-Z]{2}|\d{3})$/.test(part));
  if (region && !regionNames.of(region)) return null;
  return canonical;
}

/** A language tag in a request: checked and put in canonical case. */
export const localeSchema = z
  .string()
  .max(35)
  .transform((value, ctx) => {
    const canonical = canonicalLocale(value);
    if (canonical) return canonical;
    ctx.addIssue({ code: 'custom', message: 'must be a language tag such as "de", "pt-BR" or "zh-Hant-TW"' });
    return z.NEVER;
  })
  .meta({ description: 'A BCP 47 language tag: a language, optionally a script and a region (pt-BR)' });

/** The tags to try for `locale`, most specific first: `zh-Hant-TW` → `zh-Hant-TW`, `zh-Hant`, `zh`. */
export function localeChain(locale: string | null | undefined): string[] {
  if (!locale) return [];
  const parts = locale.split('-');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('-'));
}

/**
 * The first of `available` that `locale` reads, by its chain (`pt-BR` → `pt-BR`, then `pt`); null when none
 * (the default is used). Tags compare without regard to case.
 */
export function pickLocale(locale: string | null | undefined, available: Iterable<string>): string | null {
  const byLower = new Map<string, string>();
  for (const tag of available) byLower.set(tag.toLowerCase(), tag);
  for (const tag of localeChain(locale)) {
    const found = byLower.get(tag.toLowerCase());
    if (found) return found;
  }
  return null;
}

/**
 * The languages of an `Accept-Language` header, best first (quality 0 and `*` left out; at most 20 read), each
 * in canonical form.
 */
export function acceptedLocales(header: string | undefined): string[] {
  if (!header) return [];
  const entries = header
    .slice(0, 1000)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((e) => e.tag && e.tag !== '*' && e.q > 0 && Number.isFinite(e.q));
  entries.sort((a, b) => b.q - a.q || a.index - b.index);
  const out: string[] = [];
  for (const e of entries) {
    const canonical = canonicalLocale(e.tag);
    if (canonical && !out.includes(canonical)) out.push(canonical);
  }
  return out;
}
