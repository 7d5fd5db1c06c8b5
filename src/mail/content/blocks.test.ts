import { describe, expect, it } from 'vitest';
import { compileContent } from './index.ts';
import { blocksToMjml } from './blocks-mjml.ts';
import { parseBlockDocument } from './blocks-parse.ts';

const compile = (blocks: unknown[], settings?: unknown, labels?: { unsubscribe: string; manage: string }) =>
  compileContent({ format: 'blocks', content: { version: 1, ...(settings ? { settings } : {}), blocks }, labels }).html;

describe('block documents compile to responsive HTML', () => {
  it('keeps the Outlook conditional comments and the responsive media query', () => {
    const html = compile([{ type: 'columns', columns: [{ blocks: [] }, { blocks: [] }] }]);
    expect(html).toContain('<!--[if mso | IE]>');
    expect(html).toContain('<!--[if mso]>');
    expect(html).toContain('@media only screen and (min-width:480px)');
    expect(html).toContain('.mj-column-per-50 { width:50% !important; max-width: 50%; }');
  });

  it('renders each block type', () => {
    const html = compile([
      { id: 'b1', type: 'heading', text: 'Big news', level: 2, align: 'center' },
      { type: 'text', html: '<p>First <strong>paragraph</strong></p>' },
      { type: 'button', text: 'Read more', url: 'https://example.com/read?a=1&b=2', color: '#112233' },
      {
        type: 'image',
        src: 'https://cdn.example.com/a.png',
        alt: 'A "picture"',
        url: 'https://example.com/',
        width: 200,
      },
      { type: 'divider' },
      { type: 'spacer', height: 32 },
      {
        type: 'social',
        links: [
          { network: 'x', url: 'https://x.com/herald' },
          { network: 'mastodon', url: 'https://mastodon.social/@herald' },
        ],
      },
      { type: 'html', html: '<table><tr><td style="padding:4px">Cell</td></tr></table>' },
    ]);
    expect(html).toContain('<h2 style="margin:0;font-size:22px;line-height:1.3;font-weight:700;">Big news</h2>');
    expect(html).toContain('<p>First <strong>paragraph</strong></p>');
    expect(html).toContain('href="https://example.com/read?a=1&amp;b=2"');
    expect(html).toMatch(/<a\nhref="https:\/\/example\.com\/read\?a=1&amp;b=2" style="[^"]*background:#112233;[^"]*"/);
    expect(html).toContain('>\nRead more\n</a>');
    expect(html).toContain('<a\nhref="https://example.com/" target="_blank"\n>\n<img\nalt="A &quot;picture&quot;"');
    expect(html).toContain('alt="A &quot;picture&quot;" src="https://cdn.example.com/a.png"');
    expect(html).toContain('width="200"');
    expect(html).toContain('border-top:solid 1px #e5e7eb;');
    expect(html).toContain('<div\nstyle="height:32px;line-height:32px;"\n>&#8202;</div>');
    expect(html).toContain('<a  href="https://x.com/herald" target="_blank">');
    expect(html).toContain(
      'alt="X" title="X" src="https://www.mailjet.com/images/theme/v1/icons/ico-social/twitter-x.png"',
    );
    expect(html).toContain('href="https://mastodon.social/@herald"');
    expect(html).toContain('>\nMastodon\n</a>');
    expect(html).toContain('<table><tr><td style="padding:4px">Cell</td></tr></table>');
    expect(html).not.toContain('b1');
  });

  it('puts columns side by side, each in its own column of one section', () => {
    const html = compile([
      {
        type: 'columns',
        columns: ['Left', 'Middle', 'Right'].map((text) => ({ blocks: [{ type: 'heading', text, level: 3 }] })),
      },
    ]);
    expect(html.match(/class="mj-column-per-33-333333333333336 mj-outlook-group-fix"/g)).toHaveLength(3);
    const [left, middle, right] = ['>Left</h3>', '>Middle</h3>', '>Right</h3>'].map((s) => html.indexOf(s));
    expect(left).toBeGreaterThan(0);
    expect(middle).toBeGreaterThan(left!);
    expect(right).toBeGreaterThan(middle!);
    // Outlook reads one table row with a cell per column.
    expect(html).toContain('<!--[if mso | IE]></td><td class="" style="vertical-align:top;width:200px;" ><![endif]-->');
  });

  it('groups consecutive top-level blocks into one full-width section', () => {
    const mjml = blocksToMjml(
      parseBlockDocument(
        {
          version: 1,
          settings: { contentColor: '#ffffff' },
          blocks: [
            { type: 'divider' },
            { type: 'spacer', height: 8 },
            { type: 'columns', columns: [{ blocks: [] }, { blocks: [] }] },
            { type: 'divider' },
          ],
        },
        'content',
      ),
      'content',
    );
    expect(mjml.match(/<mj-section/g)).toHaveLength(3);
    expect(mjml).toContain(
      '<mj-section background-color="#ffffff" padding="10px 0px"><mj-column><mj-divider border-width="1px" ' +
        'border-color="#e5e7eb" />\n<mj-spacer height="8px" /></mj-column></mj-section>',
    );
  });

  it('applies the settings: width, page and content colours, font, text and link colours', () => {
    const html = compile(
      [
        { type: 'text', html: '<p><a href="https://example.com">link</a></p>' },
        { type: 'button', text: 'Go', url: 'https://example.com' },
      ],
      {
        width: 640,
        backgroundColor: '#eeeeee',
        contentColor: '#fafafa',
        fontFamily: '"Open Sans", Arial, sans-serif',
        textColor: '#333',
        linkColor: '#0055ff',
      },
    );
    expect(html).toContain('<body style="word-spacing:normal;background-color:#eeeeee;">');
    expect(html).toContain('max-width:640px');
    expect(html).toContain('background:#fafafa;background-color:#fafafa;');
    expect(html).toContain("font-family:'Open Sans', Arial, sans-serif;");
    expect(html).toContain('color:#333333;');
    expect(html).toContain('<a href="https://example.com" style="color:#0055ff">link</a>');
    expect(html).toContain('background:#0055ff;');
  });

  it('uses a plain default font rather than a web font', () => {
    const html = compile([{ type: 'text', html: '<p>x</p>' }]);
    expect(html).toContain('font-family:Helvetica, Arial, sans-serif;');
    expect(html).not.toContain('fonts.googleapis.com');
  });
});

describe('the footer block', () => {
  it('shows the address, then each link inside its own {% if %}', () => {
    const html = compile([{ type: 'footer', address: 'Example Inc.\n1 Main Street' }]);
    expect(html).toContain(
      'Example Inc.<br>1 Main Street<br>{% if unsubscribeUrl %}<a href="{{ unsubscribeUrl }}">Unsubscribe</a>' +
        '{% endif %}{% if manageUrl %}{% if unsubscribeUrl %} · {% endif %}' +
        '<a href="{{ manageUrl }}">Manage preferences</a>{% endif %}',
    );
  });

  it('takes its link texts from the labels option', () => {
    const html = compile([{ type: 'footer' }], undefined, { unsubscribe: 'Se désabonner', manage: 'Préférences' });
    expect(html).toContain('<a href="{{ unsubscribeUrl }}">Se désabonner</a>');
    expect(html).toContain('<a href="{{ manageUrl }}">Préférences</a>');
    expect(html).not.toContain('Unsubscribe<');
  });

  it('shows its own rich text instead of the links when given', () => {
    const html = compile([{ type: 'footer', html: '<p>Sent by <a href="{{ manageUrl }}">us</a></p>' }]);
    expect(html).toContain('<p>Sent by <a href="{{ manageUrl }}">us</a></p>');
    expect(html).not.toContain('{{ unsubscribeUrl }}');
  });
});

describe('text in blocks', () => {
  it('escapes plain text outside Liquid and keeps Liquid byte for byte', () => {
    const html = compile([
      { type: 'heading', text: 'Hi {{ firstName | default: "you" }} <b>&</b>', level: 1 },
      { type: 'button', text: '{% if vip %}VIP & co{% endif %}', url: '{{ offerUrl | append: "?a=1&b=2" }}' },
      { type: 'image', src: 'https://cdn.example.com/{{ id }}.png', alt: '{{ name }} "quoted"' },
    ]);
    expect(html).toContain('>Hi {{ firstName | default: "you" }} &lt;b&gt;&amp;&lt;/b&gt;</h1>');
    expect(html).toContain('{% if vip %}VIP &amp; co{% endif %}');
    expect(html).toContain('href="{{ offerUrl | append: "?a=1&b=2" }}"');
    expect(html).toContain('alt="{{ name }} &quot;quoted&quot;" src="https://cdn.example.com/{{ id }}.png"');
  });

  it('keeps Liquid inside text and html blocks, in text and attributes', () => {
    const html = compile([
      { type: 'text', html: '<p>{% if a < b %}Hello {{ name | upcase }}{% endif %} <a href="{{ link }}">x</a></p>' },
      { type: 'html', html: '<div style="color:{{ color }}">{{ "<b>" | escape }}</div>' },
    ]);
    expect(html).toContain('<p>{% if a < b %}Hello {{ name | upcase }}{% endif %} <a href="{{ link }}">x</a></p>');
    expect(html).toContain('<div style="color:{{ color }}">{{ "<b>" | escape }}</div>');
  });

  it('removes script and event handlers from text and html blocks; a span keeps only its colour', () => {
    const html = compile([
      {
        type: 'text',
        html:
          '<p onclick="steal()">Hi<script>alert(1)</script> <span style="color:#ff0000;font-size:40px" class="x">red' +
          '</span><img src="https://x/y.png"> <b>bold</b></p><h1>big</h1>',
      },
      {
        type: 'html',
        html:
          '<table onclick="steal()"><tr><td onmouseover="x()" style="padding:2px">A<script>alert(2)</script>' +
          '</td></tr>' +
          '</table><a href="javascript:alert(3)">bad</a><iframe src="https://x">frame</iframe>' +
          '<img src="data:image/png;base64,iVBO" alt="ok"><img src="data:text/html;base64,PHNj" alt="no">' +
          '<object data="x"></object><embed src="x">',
      },
    ]);
    expect(html).toContain('<p>Hi <span style="color:#ff0000">red</span> <strong>bold</strong></p>big</div>');
    expect(html).toContain('<table><tr><td style="padding:2px">A</td></tr></table><a>bad</a>');
    expect(html).toContain('<img src="data:image/png;base64,iVBO" alt="ok" /><img alt="no" />');
    for (const gone of ['<script', 'alert', 'onclick', 'onmouseover', 'iframe', 'frame<', 'object', 'embed']) {
      expect(html).not.toContain(gone);
    }
  });
});
