import { useId } from 'react';
import { ApiError } from '../../../shared/api/client.ts';

/** Tags offered in the locale field's list: the languages of most audiences, with the regions that differ most. */
const COMMON_LOCALES = [
  'en',
  'en-US',
  'en-GB',
  'de',
  'de-AT',
  'de-CH',
  'fr',
  'fr-CA',
  'es',
  'es-MX',
  'pt',
  'pt-BR',
  'pt-PT',
  'it',
  'nl',
  'sv',
  'da',
  'nb',
  'fi',
  'pl',
  'cs',
  'tr',
  'ru',
  'uk',
  'ja',
  'ko',
  'zh-Hans',
  'zh-Hant',
  'ar',
  'hi',
];

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The English name of a language tag (`pt-BR` → "Brazilian Portuguese"), or null when it is not one. */
export function localeName(tag: string): string | null {
  try {
    return names.of(tag) ?? null;
  } catch {
    return null;
  }
}

/** What the server said about the `locale` field of a failed save, if anything. */
export function localeProblem(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.fields.find((f) => f.field === 'locale')?.message ?? null;
}

/**
 * The contact's language as a BCP 47 tag, typed or picked from common ones; empty means unknown. The server checks
 * it and stores it in canonical case; `problem` is its word on the last save.
 */
export function LocaleField({
  value,
  onChange,
  problem,
}: {
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
}) {
  const id = useId();
  const name = value.trim() === '' ? null : localeName(value.trim());
  return (
    <div className="field">
      <label htmlFor={`${id}-locale`}>Locale</label>
      <input
        id={`${id}-locale`}
        list={`${id}-locales`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="unknown"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={problem !== null}
        aria-describedby={`${id}-locale-note`}
      />
      <datalist id={`${id}-locales`}>
        {COMMON_LOCALES.map((tag) => (
          <option key={tag} value={tag}>
            {localeName(tag)}
          </option>
        ))}
      </datalist>
      {problem !== null ? (
        <p id={`${id}-locale-note`} className="field-error" role="alert">
          {problem}
        </p>
      ) : (
        <p id={`${id}-locale-note`} className="hint">
          {name ?? 'A language tag such as de or pt-BR'}: picks the translation of each email and the language of the
          unsubscribe and preference pages. Empty when unknown.
        </p>
      )}
    </div>
  );
}
