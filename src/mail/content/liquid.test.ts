import { describe, expect, it } from 'vitest';
import { escapeOutsideLiquid, liquidSpans, protectLiquid, restoreLiquid } from './liquid.ts';
import { isSafeImageSrc, isSafeUrl } from './urls.ts';

describe('Liquid in compiled content', () => {
  it('finds outputs and tags, and stops at an opener without a closer', () => {
    const source = 'a {{ x }} b {% if y %} {{ "}" }} {{ open';
    expect(liquidSpans(source).map(([s, e]) => source.slice(s, e))).toEqual(['{{ x }}', '{% if y %}', '{{ "}" }}']);
    expect(liquidSpans('{{'.repeat(50_000))).toEqual([]);
  });

  it('escapes plain text outside Liquid only', () => {
    expect(escapeOutsideLiquid('Tom & "Jerry" <{{ name | default: "you" }}> {% if a < b %}x{% endif %}')).toBe(
      'Tom &amp; &quot;Jerry&quot; &lt;{{ name | default: "you" }}&gt; {% if a < b %}x{% endif %}',
    );
  });

  it('restores every placeholder exactly and reports the ones lost', () => {
    const guarded = protectLiquid('x {{ a }}\n{%\nif b\n%} y');
    expect(guarded.text).toBe('x hlqz0x\nhlqz1x y');
    expect(guarded.originalLine(2)).toBe(2);
    expect(guarded.tokenLine(1)).toBe(2);
    expect(restoreLiquid(guarded, 'hlqz1x|hlqz1x')).toEqual({ text: '{%\nif b\n%}|{%\nif b\n%}', missing: [0] });
    expect(protectLiquid('hlqz {{ a }}').marker).toBe('hlqz0q');
  });
});

describe('URLs in blocks', () => {
  it('accepts http(s), mailto and values starting with a Liquid output', () => {
    const ok = [
      'https://example.com/a?b=1',
      'http://x.y',
      'mailto:a@example.com',
      '{{ url }}',
      'https://x.y/?id={{ id }}',
    ];
    expect(ok.filter((u) => !isSafeUrl(u))).toEqual([]);
    const bad = [
      'javascript:alert(1)',
      ' javascript:x',
      'ftp://x',
      '/relative',
      '#top',
      'https://',
      'data:text/html,x',
    ];
    expect(bad.filter((u) => isSafeUrl(u))).toEqual([]);
  });

  it('accepts image sources over http(s) or from Liquid only', () => {
    expect(['https://cdn.example.com/a.png', '{{ logo }}'].map(isSafeImageSrc)).toEqual([true, true]);
    expect(['data:image/png;base64,AA', 'cid:logo', 'mailto:a@b.c'].map(isSafeImageSrc)).toEqual([false, false, false]);
  });
});
