import { describe, expect, it } from 'vitest';
import { decodeHtmlEntities, rewriteAttributes, urlScheme } from './html-attrs.ts';

const upper = (html: string) => rewriteAttributes(html, ['a'], ['href'], ({ value }) => value.toUpperCase());

describe('rewriteAttributes', () => {
  it('handles double, single and unquoted values, and `>` inside quotes', () => {
    expect(upper(`<a href="x">1</a><a href='y'>2</a><a href=z>3</a><a title="a>b" href="w">4</a>`)).toBe(
      '<a href="X">1</a><a href="Y">2</a><a href="Z">3</a><a title="a>b" href="W">4</a>',
    );
  });

  it('treats quotes as value delimiters only right after `=`, like a browser', () => {
    expect(upper(`<a title=it's href="javascript:x">1</a><a href="b">2</a>`)).toBe(
      `<a title=it's href="JAVASCRIPT:X">1</a><a href="B">2</a>`,
    );
    expect(upper(`<a href = "spaced">s</a>`)).toBe('<a href="SPACED">s</a>');
  });

  it('does not touch lookalike tags, other attributes or attribute text inside other values', () => {
    const src = `<abbr href="x"></abbr><a data-href="x" title=" href=y">t</a><area href="z">`;
    expect(upper(src)).toBe(src);
  });

  it('re-encodes the new value', () => {
    expect(rewriteAttributes('<a href="x">', ['a'], ['href'], () => 'a&b"<c>')).toBe(
      '<a href="a&amp;b&quot;&lt;c&gt;">',
    );
  });

  it('stays linear on unterminated tags', () => {
    const evil = '<a '.repeat(50_000) + '<a title="' + 'x'.repeat(50_000);
    const started = performance.now();
    expect(upper(evil)).toBe(evil);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('entities and schemes', () => {
  it('decodes the entities URLs use', () => {
    expect(decodeHtmlEntities('a&amp;b&#38;c&#x26;d&quot;&unknown;&#0;')).toBe('a&b&c&d"&unknown;&#0;');
  });

  it('finds the scheme a browser would use', () => {
    expect(urlScheme('  JavaScript:alert(1)')).toBe('javascript');
    expect(urlScheme('java\nscript:x')).toBe('javascript');
    expect(urlScheme('/path:with-colon')).toBeNull();
    expect(urlScheme('#frag')).toBeNull();
    expect(urlScheme('https://x')).toBe('https');
  });
});
