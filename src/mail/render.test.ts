import { describe, expect, it } from 'vitest';
import {
  MAX_TEMPLATE_TAGS,
  TemplateError,
  htmlToText,
  neutraliseUnsafeUrls,
  renderSubject,
  renderTemplate,
  validateTemplate,
} from './render.ts';
import { mapRewrittenIndex, rewriteFallbacks } from './render-fallback.ts';

function catchError(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  throw new Error('expected a TemplateError');
}

describe('renderTemplate', () => {
  it('escapes every output in HTML bodies, `| raw` opts out, subjects stay plain', () => {
    const out = renderTemplate({
      subject: 'Hi {{ name }} & co',
      html: '<p>{{ name }}</p><div>{{ snippet | raw }}</div><p>{{ name | upcase }}</p>',
      variables: { name: '<b>Tom & "Jerry"</b>', snippet: '<em>ok</em>' },
    });
    expect(out.subject).toBe('Hi <b>Tom & "Jerry"</b> & co');
    expect(out.html).toBe(
      '<p>&lt;b&gt;Tom &amp; ' +
        '&#34;Jerry&#34;&lt;/b&gt;</p><div><em>ok</em></div><p>&lt;B&gt;TOM &amp; ' +
        '&#34;JERRY&#34;&lt;/B&gt;</p>',
    );
  });

  it('does not double-escape an explicit `| escape`', () => {
    const out = renderTemplate({ subject: 's', html: '{{ x | escape }}', variables: { x: '<i>' } });
    expect(out.html).toBe('&lt;i&gt;');
  });

  it("accepts Plunk's `??` fallback in bodies and subjects", () => {
    const out = renderTemplate({
      subject: 'Hello {{name ?? "there"}}',
      html: `<p>Hi {{ name ?? 'friend' | upcase }}, {{ user.first ?? user.nick ?? "you" }}. {{ known ?? "x" }}</p>`,
      variables: { user: { nick: 'nicky' }, known: 'K' },
    });
    expect(out.subject).toBe('Hello there');
    expect(out.html).toBe('<p>Hi FRIEND, nicky. K</p>');
  });

  it('leaves `??` inside string literals and outside outputs alone', () => {
    const out = renderTemplate({ subject: 'what?? {{ "a??b" }}', html: '<p>{{ q ?? "??" }}</p>', variables: {} });
    expect(out.subject).toBe('what?? a??b');
    expect(out.html).toBe('<p>??</p>');
  });

  it('supports if/for/filters and nested variables', () => {
    const out = renderTemplate({
      subject: '{{ items | size }} items',
      html: '{% if vip %}VIP {% endif %}{% for i in items %}<li>{{ i.name }}</li>{% endfor %}',
      variables: { vip: true, items: [{ name: 'a' }, { name: '<b>' }] },
    });
    expect(out.subject).toBe('2 items');
    expect(out.html).toBe('VIP <li>a</li><li>&lt;b&gt;</li>');
  });

  it('derives a text part from the HTML', () => {
    const out = renderTemplate({
      subject: 's',
      html:
        '<html><head><style>p{color:red}</style></head><body><h1>Welcome</h1><p>Hello {{ ' +
        'name }} &amp; friends.</p><a href="https://example.com/x">Open</a><img ' +
        'src="https://x/y.png" alt="logo"></body></html>',
      variables: { name: 'Ann' },
    });
    expect(out.text).toContain('WELCOME');
    expect(out.text).toContain('Hello Ann & friends.');
    expect(out.text).toContain('Open [https://example.com/x]');
    expect(out.text).not.toContain('color:red');
    expect(out.text).not.toContain('<');
  });

  it('renders an explicit text template without escaping', () => {
    const out = renderTemplate({ subject: 's', html: '<p>x</p>', text: 'Hi {{ n }}', variables: { n: '<Ann>' } });
    expect(out.text).toBe('Hi <Ann>');
  });

  it('flattens line breaks that variables bring into the subject', () => {
    const out = renderTemplate({ subject: 'A {{ v }} B', html: '', variables: { v: 'x\r\nBcc: evil@example.com' } });
    expect(out.subject).toBe('A x Bcc: evil@example.com B');
  });

  it('a field without Liquid renders to itself, stray braces and all, within the same limits', () => {
    const html = '<p>50%}} off &amp; more %} here</p>';
    const out = renderTemplate({ subject: ' Plain\r\nsubject }} ', html, text: '', variables: {} });
    expect(out).toEqual({ subject: 'Plain subject }}', html, text: '' });
    expect(catchError(() => renderTemplate({ subject: 'x'.repeat(1001), html: '', variables: {} })).field).toBe(
      'subject',
    );
    expect(
      catchError(() =>
        renderTemplate({ subject: 's', html: 'x'.repeat(101), variables: {}, limits: { maxSourceLength: 100 } }),
      ).kind,
    ).toBe('limit');
  });

  it('one source parsed for the subject and for the body keeps each engine: plain in one, escaped in the other', () => {
    const source = '{{ v }}';
    const variables = { v: '<b>&' };
    for (let n = 0; n < 2; n++) {
      expect(renderTemplate({ subject: source, html: source, text: source, variables })).toEqual({
        subject: '<b>&',
        html: '&lt;b&gt;&amp;',
        text: '<b>&',
      });
    }
  });

  it('renderSubject renders the subject as renderTemplate does', () => {
    const variables = { v: 'x\nBcc: evil@example.com' };
    expect(renderSubject(' A {{ v }} B ', variables)).toBe(
      renderTemplate({ subject: ' A {{ v }} B ', html: '', variables }).subject,
    );
    expect(renderSubject('A {{ v }}', variables)).toBe('A x Bcc: evil@example.com');
    expect(catchError(() => renderSubject('{{ v | nope }}', variables)).field).toBe('subject');
  });

  it('neutralises javascript: and other unsafe URL schemes that escaping cannot stop', () => {
    const out = renderTemplate({
      subject: 's',
      html:
        '<a href="{{ u }}">x</a><a href="mailto:a@b.c">m</a><a href="/rel">r</a><img ' +
        'src="{{ u }}"><a href="https://ok.example/?a=1&amp;b=2">ok</a>',
      variables: { u: 'java\tscript:alert(1)' },
    });
    expect(out.html).toBe(
      '<a href="#">x</a><a href="mailto:a@b.c">m</a><a href="/rel">r</a><img src=""><a ' +
        'href="https://ok.example/?a=1&amp;b=2">ok</a>',
    );
    expect(neutraliseUnsafeUrls('<img src="data:image/png;base64,AAAA">')).toBe(
      '<img src="data:image/png;base64,AAAA">',
    );
    expect(neutraliseUnsafeUrls("<a href='vbscript:x'>")).toBe('<a href="#">');
  });

  it('does not read files through include/render/layout', () => {
    const err = catchError(() => validateTemplate('ok\n{% include "/etc/passwd" %}'));
    expect(err.kind).toBe('syntax');
    expect(err.line).toBe(2);
    expect(err.column).toBe(1);
    expect(() => validateTemplate('{% render "x" %}')).toThrow(TemplateError);
    expect(() => validateTemplate('{% layout "x" %}')).toThrow(TemplateError);
  });
});

describe('template errors', () => {
  it('reports line and column of a tag that is not closed', () => {
    const err = catchError(() => validateTemplate('<p>hello</p>\n<div>\n  {% if user %}\n  <b>x</b>\n'));
    expect(err.kind).toBe('syntax');
    expect(err.field).toBe('html');
    expect(err.line).toBe(3);
    expect(err.column).toBe(3);
    expect(err.message).toMatch(/not closed/);
  });

  it('reports unknown filters and unclosed outputs', () => {
    const unknown = catchError(() => validateTemplate('a\nb {{ x | nosuchfilter }}'));
    expect([unknown.line, unknown.column]).toEqual([2, 3]);
    const unclosed = catchError(() => validateTemplate('line one\n\nx {{ name', { field: 'subject' }));
    expect(unclosed.field).toBe('subject');
    expect([unclosed.line, unclosed.column]).toEqual([3, 3]);
  });

  it('maps positions after a `??` rewrite back to the source the author wrote', () => {
    const err = catchError(() => validateTemplate('{{ a ?? "b" }} {{ c ?? "d" }} {% for %}'));
    expect([err.line, err.column]).toEqual([1, 31]);
  });

  it('renderTemplate throws TemplateError for bad syntax too', () => {
    const err = catchError(() => renderTemplate({ subject: '{% if %}', html: '', variables: {} }));
    expect(err.field).toBe('subject');
    expect(err.kind).toBe('syntax');
  });

  it('caps render time', () => {
    const err = catchError(() =>
      renderTemplate({
        subject: 's',
        html: '{% for i in (1..2000) %}{% for j in (1..2000) %}{{ j }}{% endfor %}{% endfor %}',
        variables: {},
        limits: { renderTimeoutMs: 50, memoryLimit: 1e9, maxHtmlLength: 1e9 },
      }),
    );
    expect(err.kind).toBe('limit');
  });

  it.skipIf(process.platform !== 'linux')(
    'renders again a field whose thread was stalled past the limit, not one whose own work took the time',
    () => {
      // A variable that holds the thread without running it the first time it is read: the machine stalled it.
      let stalls = 1;
      const stalled = {
        get name() {
          if (stalls-- > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
          return 'Ada';
        },
      };
      const limits = { renderTimeoutMs: 50 };
      const out = renderTemplate({ subject: 's', html: '<p>{{ who.name }}!</p>', variables: { who: stalled }, limits });
      expect(out.html).toBe('<p>Ada!</p>');
      expect(stalls).toBe(-1);
      // A stall on every try fails in the end, as a template that spins does on its second try.
      stalls = 100;
      const always = catchError(() =>
        renderTemplate({ subject: 's', html: '<p>{{ who.name }}!</p>', variables: { who: stalled }, limits }),
      );
      expect(always.timedOut).toBe(true);
      expect(stalls).toBe(96);
      let spins = 0;
      const spinning = {
        get name() {
          spins++;
          const until = performance.now() + 150;
          while (performance.now() < until);
          return 'Ada';
        },
      };
      const spun = catchError(() =>
        renderTemplate({ subject: 's', html: '{{ who.name }}!', variables: { who: spinning }, limits }),
      );
      expect(spun.timedOut).toBe(true);
      expect(spins).toBe(2);
    },
  );

  it('caps memory, output size and source size', () => {
    const bomb = '{% assign s = "aaaaaaaaaa" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}';
    expect(catchError(() => renderTemplate({ subject: 's', html: bomb, variables: {} })).kind).toBe('limit');
    const big = catchError(() =>
      renderTemplate({
        subject: 's',
        html: '{{ v }}{{ v }}',
        variables: { v: 'x'.repeat(600) },
        limits: { maxHtmlLength: 1000 },
      }),
    );
    expect(big.kind).toBe('limit');
    expect(
      catchError(() => renderTemplate({ subject: '{{ v }}', html: '', variables: { v: 'x'.repeat(2000) } })).field,
    ).toBe('subject');
    expect(catchError(() => validateTemplate('x'.repeat(101), { limits: { maxSourceLength: 100 } })).kind).toBe(
      'limit',
    );
  });

  it('HTML nested deeper than the text conversion can follow is a limit on the body, not a crash', () => {
    const deep = `${'<div><a href="https://x.test">'.repeat(5_000)}x${'</a></div>'.repeat(5_000)}`;
    const error = catchError(() => renderTemplate({ subject: 's', html: deep, variables: {} }));
    expect(error).toMatchObject({ kind: 'limit', field: 'html' });
  });

  it('accepts a valid template', () => {
    expect(() => validateTemplate('{% if a %}{{ a | upcase }}{% else %}{{ b ?? "x" }}{% endif %}')).not.toThrow();
  });
});

describe('fallback rewrite', () => {
  it('rewrites only inside outputs and maps indexes back', () => {
    const src = 'x ?? {{ a ?? "b" }}';
    const r = rewriteFallbacks(src);
    expect(r.source).toBe('x ?? {{ a | default: "b" }}');
    expect(mapRewrittenIndex(r, r.source.indexOf('"b"'))).toBe(src.indexOf('"b"'));
    expect(mapRewrittenIndex(r, r.source.indexOf('default'))).toBe(src.indexOf('??', 6));
  });

  it('htmlToText handles plain input', () => {
    expect(htmlToText('plain')).toBe('plain');
  });
});

describe('template size limits', () => {
  it(
    'refuses more Liquid tags and outputs than MAX_TEMPLATE_TAGS before parsing (the ' + 'parser is quadratic in them)',
    () => {
      expect(() => validateTemplate('{{ a }}'.repeat(MAX_TEMPLATE_TAGS))).not.toThrow();
      const err = catchError(() => validateTemplate(`${'{{ a }}'.repeat(MAX_TEMPLATE_TAGS)}{% if x %}{% endif %}`));
      expect(err.kind).toBe('limit');
      expect(err.message).toContain(String(MAX_TEMPLATE_TAGS));
      expect(catchError(() => validateTemplate('{{a}}'.repeat(200_000))).kind).toBe('limit');
    },
  );
});
