import { describe, expect, it } from 'vitest';
import { emailAddressSchema, needsSmtpUtf8, normalizeEmail, parseAddress, unicodeEmail } from './email-address.ts';

describe('parseAddress', () => {
  it.each([
    ['user@example.com', 'user', 'example.com'],
    ['  First.Last@Example.COM ', 'First.Last', 'example.com'],
    ["o'brien+news@mail.example.co.uk", "o'brien+news", 'mail.example.co.uk'],
    ['a!#$%&*/=?^_`{|}~-b@example.com', 'a!#$%&*/=?^_`{|}~-b', 'example.com'],
    ['user@bücher.example', 'user', 'xn--bcher-kva.example'],
    ['user@xn--bcher-kva.example', 'user', 'xn--bcher-kva.example'],
    ['user@sub-domain.example-1.com', 'user', 'sub-domain.example-1.com'],
    ['user@münchen.de', 'user', 'xn--mnchen-3ya.de'],
    ['user@example.xn--p1ai', 'user', 'example.xn--p1ai'],
    ['user@пример.рф', 'user', 'xn--e1afmkfd.xn--p1ai'],
    ['jöhn@example.com', 'jöhn', 'example.com'],
    ['用户@例子.广告', '用户', 'xn--fsqu00a.xn--4rr70v'],
    ['δοκιμή@παράδειγμα.δοκιμή', 'δοκιμή', 'xn--hxajbheg2az3al.xn--jxalpdlp'],
  ])('accepts %j', (input, local, domain) => {
    expect(parseAddress(input)).toMatchObject({ ok: true, local, domain });
  });

  it.each([
    ['', /empty/],
    ['user.example.com', /no @/],
    ['a@b@example.com', /more than one @/],
    ['"john doe"@example.com', /quoted local parts/],
    ['"john"@example.com', /quoted local parts/],
    ['@example.com', /before @ is empty/],
    ['user@', /domain is empty/],
    ['.user@example.com', /starts or ends with a dot/],
    ['user.@example.com', /starts or ends with a dot/],
    ['us..er@example.com', /two dots/],
    ['john doe@example.com', /not allowed/],
    ['user(comment)@example.com', /not allowed/],
    ['jo\u200bhn@example.com', /not allowed/],
    ['jo\u00a0hn@example.com', /not allowed/],
    ['jo☃hn@example.com', /not allowed/],
    [`${'a'.repeat(65)}@example.com`, /longer than 64/],
    [`user@${'a'.repeat(64)}.com`, /label is longer than 63/],
    [`user@${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.com`, /domain is longer than 253/],
    [
      `${'a'.repeat(64)}@${Array.from({ length: 3 }, () => 'b'.repeat(60)).join('.')}.example`,
      /address is longer than 254/,
    ],
    ['user@localhost', /no top-level domain/],
    ['user@[192.0.2.1]', /IP address literals/],
    ['user@192.0.2.1', /numeric/],
    ['user@example..com', /empty label/],
    ['user@example.com.', /empty label/],
    ['user@-example.com', /inner hyphens/],
    ['user@exa_mple.com', /inner hyphens/],
    ['user@exa%41mple.com', /not allowed/],
    ['user@exa mple.com', /not allowed/],
  ])('rejects %j', (input, reason) => {
    const parsed = parseAddress(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('accepts exactly 254 characters and no more', () => {
    const local = 'a'.repeat(64);
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(`${local}@${domain}`.length).toBe(254);
    expect(parseAddress(`${local}@${domain}`)).toMatchObject({ ok: true });
    expect(parseAddress(`${local}@x.${domain}`)).toMatchObject({ ok: false, reason: expect.stringMatching(/254/) });
  });

  it('applies the label limit to the punycode form of an IDN label', () => {
    const label = 'bü'.repeat(30); // 60 characters typed, 67 once converted
    expect(parseAddress(`user@${label}.com`)).toMatchObject({ ok: false, reason: expect.stringMatching(/63/) });
  });

  it('detects plus addressing and IDN', () => {
    expect(parseAddress('user+tag@example.com')).toMatchObject({ plusTag: 'tag', isIdn: false });
    expect(parseAddress('user+@example.com')).toMatchObject({ plusTag: '' });
    expect(parseAddress('+tag@example.com')).toMatchObject({ ok: true, plusTag: null });
    expect(parseAddress('user@example.com')).toMatchObject({ plusTag: null });
    expect(parseAddress('user@bücher.example')).toMatchObject({ isIdn: true });
  });

  it('counts the local part in UTF-8 octets (64 at most)', () => {
    expect(parseAddress(`${'ö'.repeat(32)}@example.com`)).toMatchObject({ ok: true, smtpUtf8: true });
    expect(parseAddress(`${'ö'.repeat(33)}@example.com`)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/64/),
    });
  });
});

describe('the stored and shown forms', () => {
  it('stores lower-case, NFC, the domain in punycode; shows the domain in Unicode', () => {
    expect(normalizeEmail('  User@MÜNCHEN.de ')).toBe('user@xn--mnchen-3ya.de');
    expect(normalizeEmail('Jo\u0308hn@Example.com')).toBe('jöhn@example.com');
    expect(unicodeEmail('user@xn--mnchen-3ya.de')).toBe('user@münchen.de');
    expect(unicodeEmail('user@example.com')).toBe('user@example.com');
    expect(needsSmtpUtf8('jöhn@example.com')).toBe(true);
    expect(needsSmtpUtf8('john@xn--mnchen-3ya.de')).toBe(false);
  });

  it('is the zod schema of every address field: the stored form, or an issue naming the reason', () => {
    expect(emailAddressSchema.parse('Ann@Bücher.Example')).toBe('ann@xn--bcher-kva.example');
    const bad = emailAddressSchema.safeParse('ann@@example.com');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/^Invalid email address: /);
  });
});
