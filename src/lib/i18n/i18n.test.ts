import { describe, expect, it } from 'vitest';
import { catalogues, footerLabels, LANGUAGES, pageLocale, t } from './index.ts';

const english = catalogues.en;
const keys = Object.keys(english).sort();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<\/?([a-z]+)/g)].map((m) => m[0]).sort();
/** Values that may read the same as in English (a word both languages share); more is an untranslated catalogue. */
const MAX_SAME_AS_ENGLISH = 3;

describe('the hosted pages’ catalogues', () => {
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const catalogue = catalogues[lang] as Record<string, string>;

    it(`${lang}: has every key of English and no other, none empty`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      for (const key of keys) expect(catalogue[key]?.trim(), `${lang} ${key}`).not.toBe('');
    });

    it(`${lang}: keeps each text’s parameters and markup, and is translated`, () => {
      for (const key of keys) {
        const source = (english as Record<string, string>)[key]!;
        expect(placeholders(catalogue[key]!), `${lang} ${key}`).toEqual(placeholders(source));
        expect(tags(catalogue[key]!), `${lang} ${key}`).toEqual(tags(source));
      }
      const same = keys.filter((key) => catalogue[key] === (english as Record<string, string>)[key]);
      expect(same.length, `${lang} reads as English for ${same.join(', ')}`).toBeLessThanOrEqual(MAX_SAME_AS_ENGLISH);
    });
  }
});

describe('pageLocale', () => {
  it('speaks the contact’s language first, by its language when only that has a catalogue', () => {
    expect(pageLocale({ contactLocale: 'pt-BR', acceptLanguage: 'de' })).toBe('pt');
    expect(pageLocale({ contactLocale: 'de-CH' })).toBe('de');
    expect(pageLocale({ contactLocale: 'fr' })).toBe('fr');
  });

  it('falls back to the best supported language of Accept-Language, then English', () => {
    expect(pageLocale({ contactLocale: 'ja', acceptLanguage: 'ja, nl;q=0.5, de;q=0.8' })).toBe('de');
    expect(pageLocale({ acceptLanguage: 'de-DE,de;q=0.9' })).toBe('de');
    expect(pageLocale({ contactLocale: null, acceptLanguage: 'ja, zh;q=0.5' })).toBe('en');
    expect(pageLocale({ acceptLanguage: 'xx-INVALID, it;q=0.1' })).toBe('it');
    expect(pageLocale({})).toBe('en');
  });
});

describe('t', () => {
  it('fills parameters in as given, leaving unknown ones visible', () => {
    expect(t('de', 'unsubscribe.title', { sender: 'Acme' })).toBe('Von Acme abmelden');
    expect(t('en', 'page.from', { sender: '&#60;b&#62;' })).toBe('Emails from <strong>&#60;b&#62;</strong>');
    expect(t('en', 'unsubscribe.title')).toBe('Unsubscribe from {sender}');
  });
});

describe('footerLabels', () => {
  it('names the footer links in the reader’s language, English when there is no catalogue for it', () => {
    expect(footerLabels('de-AT')).toEqual({ unsubscribe: 'Abmelden', manage: 'Einstellungen verwalten' });
    expect(footerLabels('pt-BR')).toEqual({ unsubscribe: 'Cancelar inscrição', manage: 'Gerenciar preferências' });
    expect(footerLabels('ja')).toEqual({ unsubscribe: 'Unsubscribe', manage: 'Manage preferences' });
    expect(footerLabels(null)).toEqual(footerLabels('en'));
  });
});
