import { describe, expect, it } from 'vitest';
import {
  checkLayout,
  compileContent,
  CONTENT_TAG,
  ContentError,
  type ContentIssue,
  type LayoutSource,
} from './index.ts';

function issuesOf(run: () => unknown): ContentIssue[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ContentError) return err.errors;
    throw err;
  }
  throw new Error('no ContentError thrown');
}

const section = (text: string) => `<mj-section><mj-column><mj-text>${text}</mj-text></mj-column></mj-section>`;
const mjmlLayout: LayoutSource = {
  format: 'mjml',
  source: [
    '<mjml>',
    '<mj-head><mj-attributes><mj-text color="#123456" /></mj-attributes></mj-head>',
    '<mj-body width="640px" background-color="#eeeeee">',
    section('Layout header'),
    '{{ content }}',
    section('Layout footer {{ unsubscribeUrl }}'),
    '</mj-body>',
    '</mjml>',
  ].join('\n'),
};
const htmlLayout: LayoutSource = {
  format: 'html',
  source: '<html><body><div class="wrap">{{content}}</div></body></html>',
};

describe('the content tag', () => {
  it('matches {{ content }} with or without spaces inside the braces', () => {
    expect(['{{content}}', '{{ content }}', '{{  content\n}}'].map((s) => CONTENT_TAG.test(s))).toEqual([
      true,
      true,
      true,
    ]);
    expect(['{{ contents }}', '{{ content | upcase }}', '{ content }'].map((s) => CONTENT_TAG.test(s))).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe('checkLayout', () => {
  it('accepts a layout with one content tag', () => {
    expect(() => checkLayout(htmlLayout)).not.toThrow();
    expect(() => checkLayout(mjmlLayout)).not.toThrow();
  });

  it('refuses a layout with two content tags or none, saying how many', () => {
    expect(issuesOf(() => checkLayout({ format: 'html', source: '{{ content }}<hr>{{content}}' }))).toEqual([
      {
        field: 'layout',
        code: 'layout_content_tag',
        message: 'a layout holds exactly one {{ content }}, where the content goes; found 2',
      },
    ]);
    expect(issuesOf(() => checkLayout({ format: 'mjml', source: '<mjml><mj-body></mj-body></mjml>' }, 'body'))).toEqual(
      [
        {
          field: 'body',
          code: 'layout_content_tag',
          message: 'a layout holds exactly one {{ content }}, where the content goes; found 0',
        },
      ],
    );
  });

  it('compiles an mjml layout, its content tag standing for sections', () => {
    const inColumn = {
      format: 'mjml' as const,
      source: '<mjml>\n<mj-body>\n<mj-section><mj-column>\n{{ content }}\n</mj-column></mj-section></mj-body></mjml>',
    };
    expect(issuesOf(() => checkLayout(inColumn))).toEqual([
      {
        field: 'layout',
        code: 'mjml_invalid',
        line: 4,
        message: 'line 4: mj-section cannot be used inside mj-column, only inside: mj-attributes, mj-body, mj-wrapper',
      },
    ]);
    const inText = { format: 'mjml' as const, source: `<mjml><mj-body>${section('{{ content }}')}</mj-body></mjml>` };
    expect(issuesOf(() => checkLayout(inText))).toEqual([
      {
        field: 'layout',
        code: 'layout_content_tag',
        message:
          '{{ content }} must stand where sections go, directly inside <mj-body> (or mj-wrapper), not in mj-text or ' +
          'mj-raw',
      },
    ]);
    expect(issuesOf(() => checkLayout({ format: 'mjml', source: '<div>{{ content }}</div>' }))[0]).toMatchObject({
      field: 'layout',
      code: 'mjml_syntax',
    });
  });
});

describe('compileContent', () => {
  it('returns html bodies as written, or substituted into their html layout', () => {
    const body = '<p onclick="x()">Hi {{ name }} $& $1</p>';
    expect(compileContent({ format: 'html', body })).toEqual({ html: body, warnings: [] });
    expect(compileContent({ format: 'html', body, layout: htmlLayout }).html).toBe(
      '<html><body><div class="wrap"><p onclick="x()">Hi {{ name }} $& $1</p></div></body></html>',
    );
  });

  it('compiles an mjml fragment inside its mjml layout, once', () => {
    const { html, warnings } = compileContent({ format: 'mjml', content: section('The body'), layout: mjmlLayout });
    expect(warnings).toEqual([]);
    const [header, content, footer] = ['Layout header', 'The body', 'Layout footer {{ unsubscribeUrl }}'].map((s) =>
      html.indexOf(s),
    );
    expect(header).toBeGreaterThan(0);
    expect(content).toBeGreaterThan(header!);
    expect(footer).toBeGreaterThan(content!);
    expect(html.match(/<!doctype html>/g)).toHaveLength(1);
    expect(html).toContain('<body style="word-spacing:normal;background-color:#eeeeee;">');
    expect(html).toContain('color:#123456;"\n>The body</div>');
    expect(html).toContain('@media only screen and (min-width:480px)');
  });

  it('refuses an mjml fragment without a layout', () => {
    expect(issuesOf(() => compileContent({ format: 'mjml', content: section('x') }))).toEqual([
      {
        field: 'content',
        code: 'mjml_fragment',
        message: 'this MJML is a fragment (no <mjml> root): give a whole <mjml> document, or use an mjml layout',
      },
    ]);
  });

  it('compiles a whole mjml document alone and warns that the layout was not applied', () => {
    const content = `<mjml><mj-body>${section('Alone')}</mj-body></mjml>`;
    const { html, warnings } = compileContent({ format: 'mjml', content, layout: mjmlLayout });
    expect(warnings).toEqual(['the layout was not applied: the content is a whole <mjml> document']);
    expect(html).toContain('>Alone</div>');
    expect(html).not.toContain('Layout header');
    expect(compileContent({ format: 'mjml', content }).warnings).toEqual([]);
  });

  it('names content or layout lines for errors in a fragment compiled inside its layout', () => {
    const content = `${section('ok')}\n<mj-column></mj-column>`;
    expect(
      issuesOf(() => compileContent({ format: 'mjml', content, layout: mjmlLayout, field: 'variants[1].content' })),
    ).toEqual([
      {
        field: 'variants[1].content',
        code: 'mjml_invalid',
        line: 2,
        message: 'line 2: mj-column cannot be used inside mj-body, only inside: mj-attributes, mj-group, mj-section',
      },
    ]);
    const broken = {
      format: 'mjml' as const,
      source: mjmlLayout.source.replace('</mj-body>', '<mj-bad />\n</mj-body>'),
    };
    expect(issuesOf(() => compileContent({ format: 'mjml', content: section('x'), layout: broken }))[0]).toMatchObject({
      field: 'layout',
      line: 7,
    });
  });

  it('puts block sections inside an mjml layout; the layout sets the page', () => {
    const content = {
      version: 1,
      settings: { width: 700, backgroundColor: '#000000', textColor: '#222222' },
      blocks: [{ type: 'heading', text: 'Blocks inside', level: 1 }, { type: 'footer' }],
    };
    const { html, warnings } = compileContent({ format: 'blocks', content, layout: mjmlLayout });
    expect(warnings).toEqual(['settings width and backgroundColor not applied: the layout sets the page']);
    expect(html.indexOf('>Blocks inside</h1>')).toBeGreaterThan(html.indexOf('Layout header'));
    expect(html.indexOf('>Blocks inside</h1>')).toBeLessThan(html.indexOf('Layout footer'));
    expect(html).toContain('max-width:640px');
    expect(html).not.toContain('max-width:700px');
    expect(html).toContain('<body style="word-spacing:normal;background-color:#eeeeee;">');
    expect(html).toContain('color:#222222;"\n><h1');
    expect(html).toContain('{% if unsubscribeUrl %}<a href="{{ unsubscribeUrl }}">Unsubscribe</a>{% endif %}');
  });

  it('refuses a layout of the other kind', () => {
    const layoutFormat = [{ field: 'layout', code: 'layout_format' }];
    const pick = (issues: ContentIssue[]) => issues.map(({ field, code }) => ({ field, code }));
    expect(pick(issuesOf(() => compileContent({ format: 'html', body: '<p>x</p>', layout: mjmlLayout })))).toEqual(
      layoutFormat,
    );
    expect(pick(issuesOf(() => compileContent({ format: 'mjml', content: section('x'), layout: htmlLayout })))).toEqual(
      layoutFormat,
    );
    const blocks = { version: 1, blocks: [] };
    expect(issuesOf(() => compileContent({ format: 'blocks', content: blocks, layout: htmlLayout }))).toEqual([
      { field: 'layout', code: 'layout_format', message: 'blocks content takes an mjml layout; this layout is html' },
    ]);
  });

  it('refuses content of the wrong type for its format', () => {
    expect(issuesOf(() => compileContent({ format: 'mjml', content: { version: 1 } }))).toEqual([
      { field: 'content', code: 'invalid_content', message: 'mjml content must be a string' },
    ]);
  });
});
