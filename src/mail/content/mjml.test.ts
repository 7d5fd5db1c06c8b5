import { describe, expect, it } from 'vitest';
import { compileMjml, ContentError, type ContentIssue } from './index.ts';

function issuesOf(run: () => unknown): ContentIssue[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ContentError) return err.errors;
    throw err;
  }
  throw new Error('no ContentError thrown');
}

const section = (inner: string) => `<mj-section><mj-column>${inner}</mj-column></mj-section>`;
const doc = (body: string) => `<mjml>\n<mj-body>\n${body}\n</mj-body>\n</mjml>`;

describe('compileMjml', () => {
  it('keeps the Outlook conditional comments and the responsive media query', () => {
    const html = compileMjml(
      doc(`<mj-section>${'<mj-column><mj-text>x</mj-text></mj-column>'.repeat(2)}</mj-section>`),
    );
    expect(html.startsWith('<!doctype html>\n<html')).toBe(true);
    expect(html).toContain('<!--[if mso | IE]><table align="center"');
    expect(html).toContain('<!--[if mso]>\n<noscript>');
    expect(html).toContain('@media only screen and (min-width:480px) {\n.mj-column-per-50 { width:50% !important;');
  });

  it('keeps Liquid byte for byte in text, attributes and between sections', () => {
    const source = doc(
      [
        '{% if vip %}',
        section(
          '<mj-text>Hi {{ firstName | default: "you" }} <a href="{{ url | append: "?a=1&b=2" }}">x</a></mj-text>' +
            '<mj-button href="{{ buttonUrl }}">Go {{\n  name }}</mj-button>' +
            '<mj-image src="{{ imageUrl }}" href="https://example.com/{{ id }}" />',
        ),
        '{% else %}',
        section('<mj-text>{% for i in (1..3) %}{{ i }}{% endfor %}{% if a < b and c > d %}!{% endif %}</mj-text>'),
        '{% endif %}',
      ].join('\n'),
    );
    const html = compileMjml(source);
    for (const liquid of [
      'Hi {{ firstName | default: "you" }} <a href="{{ url | append: "?a=1&b=2" }}">x</a>',
      'href="{{ buttonUrl }}"',
      'Go {{\n  name }}',
      'src="{{ imageUrl }}"',
      'href="https://example.com/{{ id }}"',
      '{% for i in (1..3) %}{{ i }}{% endfor %}{% if a < b and c > d %}!{% endif %}',
    ]) {
      expect(html).toContain(liquid);
    }
    // Each branch holds whole sections, Outlook tables opened and closed inside it.
    const branches = html.split(/\{% if vip %\}|\{% else %\}|\{% endif %\}\n/);
    expect(branches).toHaveLength(4);
    for (const branch of [branches[1]!, branches[2]!]) {
      expect(branch.match(/<!--\[if mso \| IE\]><table align="center"/g)).toHaveLength(1);
      expect(branch.trimEnd().endsWith('<!--[if mso | IE]></td></tr></table><![endif]-->')).toBe(true);
    }
  });

  it('keeps Liquid that stands between the elements of a column', () => {
    const html = compileMjml(doc(section('{% if a %}<mj-text>A</mj-text>{% endif %}<mj-text>B</mj-text>')));
    const [open, a, end, b] = ['{% if a %}', '>A</div>', '{% endif %}', '>B</div>'].map((s) => html.indexOf(s));
    expect(open).toBeGreaterThan(0);
    expect([open! < a!, a! < end!, end! < b!]).toEqual([true, true, true]);
  });

  it('names the line and message of an invalid element', () => {
    const source = '<mjml>\n<mj-body>\n<mj-column><mj-text>x</mj-text></mj-column>\n</mj-body>\n</mjml>';
    expect(issuesOf(() => compileMjml(source))).toEqual([
      {
        field: 'content',
        code: 'mjml_invalid',
        line: 3,
        message: 'line 3: mj-column cannot be used inside mj-body, only inside: mj-attributes, mj-group, mj-section',
      },
    ]);
    const error = (() => {
      try {
        compileMjml(source, 'variants[1].content');
      } catch (err) {
        return err as Error;
      }
    })();
    expect(error?.message).toBe(
      'variants[1].content: line 3: mj-column cannot be used inside mj-body, only inside: mj-attributes, mj-group, ' +
        'mj-section',
    );
  });

  it('counts source lines through multi-line Liquid', () => {
    const source = '<mjml>\n<mj-body>\n{{\n a\n}}\n<mj-text>x</mj-text>\n</mj-body>\n</mjml>';
    expect(issuesOf(() => compileMjml(source)).map((i) => i.line)).toEqual([6]);
  });

  it('refuses MJML that does not parse', () => {
    for (const source of ['', 'hello', '<div>x</div>', '{"version":1}', '<mjml><mj-body>', '<<<>>>']) {
      expect(issuesOf(() => compileMjml(source))).toEqual([
        {
          field: 'content',
          code: 'mjml_syntax',
          message: 'not an MJML document: it must start with <mjml> and end with </mjml>',
        },
      ]);
    }
    expect(issuesOf(() => compileMjml('<mjml><mj-head></mj-head></mjml>'))).toEqual([
      {
        field: 'content',
        code: 'mjml_syntax',
        message: 'Malformed MJML. Check that your structure is correct and enclosed in <mjml> tags.',
      },
    ]);
    expect(issuesOf(() => compileMjml('<mjml>\n<mj-bdy></mj-bdy></mjml>'))[0]).toMatchObject({
      code: 'mjml_invalid',
      line: 2,
      message: "line 2: Element mj-bdy doesn't exist or is not registered",
    });
  });

  it('refuses script, iframe, event handlers and javascript: URLs, naming the line', () => {
    const cases: Array<[string, string]> = [
      ['<mj-raw>\n<script>alert(1)</script></mj-raw>', 'line 4: script elements are not allowed'],
      [
        '<mj-raw>\n<a href="x" onclick="steal()">a</a></mj-raw>',
        'line 4: event-handler attributes (onclick) are not allowed',
      ],
      [
        section('\n<mj-button href="jav&#x61;script:alert(1)">a</mj-button>'),
        'line 4: javascript: URLs are not allowed (mj-button href)',
      ],
      [
        '<mj-raw><!--[if mso]>\n<a href=" javascript:x">a</a><![endif]--></mj-raw>',
        'line 4: javascript: URLs are not allowed (a href)',
      ],
      ['<mj-raw>\n<SCRIPT\nsrc="https://x.example/a.js"></SCRIPT></mj-raw>', 'line 4: script elements are not allowed'],
      ['<mj-raw>\n<iframe src="https://x.example/"></iframe></mj-raw>', 'line 4: iframe elements are not allowed'],
    ];
    for (const [body, message] of cases) {
      expect(issuesOf(() => compileMjml(doc(body)))).toEqual([
        { field: 'content', code: 'unsafe_content', line: 4, message },
      ]);
    }
  });

  it('refuses mj-include: a template never reads the file system', () => {
    expect(issuesOf(() => compileMjml(doc('<mj-include path="/etc/passwd" type="html" />')))).toEqual([
      {
        field: 'content',
        code: 'mjml_invalid',
        line: 3,
        message: 'line 3: mj-include is not supported: a template is one document',
      },
    ]);
  });

  it('refuses a tree too deep or too large before MJML reads it', () => {
    const deep = `<mjml><mj-body>\n${'<mj-wrapper>'.repeat(100)}${'</mj-wrapper>'.repeat(100)}</mj-body></mjml>`;
    expect(issuesOf(() => compileMjml(deep))).toEqual([
      { field: 'content', code: 'mjml_invalid', line: 2, message: 'line 2: MJML elements nest more than 50 deep' },
    ]);
    const large = doc(Array.from({ length: 8_000 }, () => section('<mj-text>x</mj-text>')).join('\n'));
    expect(issuesOf(() => compileMjml(large))).toEqual([
      {
        field: 'content',
        code: 'too_many_elements',
        line: 502,
        message: 'line 502: MJML holds more than 1,500 elements; this one is past it',
      },
    ]);
  });

  it('refuses Liquid that MJML would drop', () => {
    const source =
      '<mjml>\n<mj-head><mj-attributes>{% if x %}<mj-all padding="0px" /></mj-attributes></mj-head>\n' +
      '<mj-body>{% endif %}</mj-body>\n</mjml>';
    expect(issuesOf(() => compileMjml(source))).toEqual([
      {
        field: 'content',
        code: 'mjml_liquid',
        line: 2,
        message:
          'line 2: the Liquid {% if x %} is dropped by MJML where it stands; put it inside <mj-text> or <mj-raw>, ' +
          'or between sections',
      },
    ]);
  });

  it('leaves text that only looks like a placeholder alone', () => {
    const html = compileMjml(doc(section('<mj-text>hlqz0x {{ a }} hlqz1x</mj-text>')));
    expect(html).toContain('hlqz0x {{ a }} hlqz1x');
  });
});
