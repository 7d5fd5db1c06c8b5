import { describe, expect, it } from 'vitest';
import { catalogues, LANGUAGES, pickLanguage, t } from './index.ts';

const english = catalogues.en as Record<string, string>;
const keys = Object.keys(english).sort();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Values that may read the same as in English (Email, Password, editor in Italian); more is an untranslated file. */
const MAX_SAME_AS_ENGLISH = 3;

describe('the catalogues of the pages of mailed links', () => {
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const catalogue = catalogues[lang] as Record<string, string>;

    it(`${lang}: has every key of English and no other, none empty, each with English's parameters`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      for (const key of keys) {
        expect(catalogue[key]?.trim(), `${lang} ${key}`).not.toBe('');
        expect(placeholders(catalogue[key]!), `${lang} ${key}`).toEqual(placeholders(english[key]!));
      }
    });

    it(`${lang}: is translated`, () => {
      const same = keys.filter((key) => catalogue[key] === english[key]);
      expect(same.length, `${lang} reads as English for ${same.join(', ')}`).toBeLessThanOrEqual(MAX_SAME_AS_ENGLISH);
    });
  }
});

describe('pickLanguage', () => {
  it('takes the first of the browser’s languages with a catalogue, by its language, else English', () => {
    expect(pickLanguage(['de-CH', 'en'])).toBe('de');
    expect(pickLanguage(['ja', 'pt-BR', 'fr'])).toBe('pt');
    expect(pickLanguage(['NL'])).toBe('nl');
    expect(pickLanguage(['ja', 'zh-CN'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });
});

describe('t', () => {
  it('fills in parameters and keeps the English texts the end-to-end tests read', () => {
    expect(t('en', 'invite.summary.editor', { project: 'Acme', role: 'editor' })).toBe(
      'You are invited to Acme as an editor.',
    );
    expect(t('de', 'forgot.title')).toBe('Passwort zurücksetzen');
    expect(t('en', 'password.again')).toBe('Repeat the password');
  });
});
