import { describe, expect, it } from 'vitest';
import { checkHtml, GMAIL_CLIP_BYTES } from './checks.content.ts';
import { dataKeysRead } from './checks.variables.ts';
import { blocklistNames } from './checks.dns.ts';

const codes = (html: string, marketing = true) =>
  checkHtml(html, { marketing })
    .issues.map((issue) => issue.code)
    .sort();
const text = '<p>Enough words here for a reader to read.</p>';
const unsub = '<a href="{{unsubscribeUrl}}">Unsubscribe</a>';

describe('checkHtml', () => {
  it('finds nothing in a plain message with its unsubscribe link', () => {
    expect(codes(text + unsub)).toEqual([]);
    expect(codes(text + '<a href="{{- manageUrl -}}">Preferences</a>')).toEqual([]);
    // Transactional mail needs no unsubscribe link.
    expect(codes(text, false)).toEqual([]);
  });

  it('measures the size in UTF-8 bytes, as Gmail does', () => {
    const under = 'é'.repeat(GMAIL_CLIP_BYTES / 2 - 200);
    expect(codes(`<p>${under}</p>${unsub}`)).toEqual([]);
    expect(codes(`<p>${under}${'é'.repeat(200)}</p>${unsub}`)).toEqual(['html_too_large']);
  });

  it('wants alt on every image, an empty one included', () => {
    expect(codes(`${text}${unsub}<img src="a.png" alt=""><IMG SRC="b.png" ALT="Logo">`)).toEqual([]);
    const facts = checkHtml(`${text}${unsub}<img src="a.png"><img src="b.png" alt="x">`, { marketing: true });
    expect(facts.issues).toHaveLength(1);
    expect(facts.issues[0]!.message).toContain('"a.png"');
  });

  it('flags link text naming another site than the target, not the same site or words', () => {
    const link = (href: string, label: string) => `${text}${unsub}<a href="${href}">${label}</a>`;
    expect(codes(link('https://evil.example/x', 'https://bank.example/login'))).toEqual(['misleading_link_text']);
    expect(codes(link('https://evil.example/x', 'www.bank.example'))).toEqual(['misleading_link_text']);
    expect(codes(link('https://www.bank.example/a', 'https://bank.example/b'))).toEqual([]);
    expect(codes(link('https://links.bank.example/a', 'bank.example and more'))).toEqual([]);
    // Entities are decoded before the comparison.
    expect(codes(link('https://evil.example/', 'https&#58;//bank.example'))).toEqual(['misleading_link_text']);
  });

  it('lists link hosts once, without Liquid addresses, and spots shorteners', () => {
    const facts = checkHtml(
      `${text}${unsub}<a href="https://A.example/1">a</a><a href="https://a.example/2">b</a>` +
        '<a href="{{ url }}">c</a><a href="mailto:x@y.example">d</a><a href="https://www.bit.ly/q">e</a>',
      { marketing: true },
    );
    expect(facts.linkHosts).toEqual(['a.example', 'www.bit.ly']);
    expect(facts.issues.map((issue) => issue.code)).toEqual(['url_shortener']);
  });

  it('tells images without text from markup without text, and ignores Liquid when counting text', () => {
    expect(codes(`${unsub}<img src="a.png" alt="">`)).toEqual(['images_only']);
    expect(codes(`<div style="${'x'.repeat(1100)}"></div>{{ unsubscribeUrl }}{% if a %}{% endif %}`)).toEqual([
      'no_plain_text',
    ]);
    // Short HTML without text is not worth a warning.
    expect(codes(`<div></div>${unsub}`)).toEqual([]);
  });
});

describe('dataKeysRead', () => {
  it('reads top-level and contact.data keys, not built-ins, loop variables or ones with a fallback', () => {
    const keys = dataKeysRead([
      'Hi {{ firstName }} from {{ contact.data.city }}',
      '{{ nick ?? "you" }} {{ team | default: "x" }} {{ email }} {{ contact.email }} {{ unsubscribeUrl }}',
      '{% for item in items %}{{ item.name }}{% endfor %}{% if plan %}{{ plan }}{% endif %}',
    ]);
    expect(keys).toEqual(['firstName', 'city', 'items', 'plan']);
  });

  it('skips a template that cannot be analysed', () => {
    expect(dataKeysRead(['{% if %}', '{{ a }}'])).toEqual(['a']);
  });
});

describe('blocklistNames', () => {
  it('asks about the host without www and its parent domain', () => {
    expect(blocklistNames('www.example.com')).toEqual(['example.com']);
    expect(blocklistNames('links.shop.example.com')).toEqual(['links.shop.example.com', 'example.com']);
    expect(blocklistNames('example.com')).toEqual(['example.com']);
  });
});
