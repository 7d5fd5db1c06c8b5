/**
 * Content compile time per template save: a realistic newsletter (28 blocks: headings, paragraphs with links, 2-
 * and 3-column sections with images and buttons, social links, footer) as a block document, the same newsletter
 * written as MJML, and the html format in an html layout (string substitution only) as the baseline; then the
 * block limit (a document of MAX_BLOCKS blocks). In process, one thread, after a warm-up.
 * BENCH_ITERATIONS (default 200) compiles per format.
 */
import { compileContent, MAX_BLOCKS, type CompileInput } from '../src/mail/content/index.ts';
import { fmt, machineLine, percentile } from './support.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const WARMUP = 20;

const link = (path: string) => `https://example.com/${path}?utm_source=newsletter&amp;id={{ contactId }}`;
const paragraph = (n: number) =>
  `<p>Hello {{ firstName | default: "there" }}, story ${n} is about <a href="${link(`s${n}`)}">our new release</a>, ` +
  `with <strong>faster sends</strong> and <em>better reports</em>.</p>` +
  `<p>Read the <a href="${link('notes')}">notes</a>.</p>`;
const card = (n: number) => [
  { type: 'image', src: `https://cdn.example.com/card-${n}.png`, alt: `Card ${n}`, url: link(`card${n}`) },
  { type: 'text', html: `<p>Card ${n}: a short teaser with <a href="${link(`c${n}`)}">a link</a>.</p>` },
];

/** The newsletter as a block document. */
export const newsletterBlocks = {
  version: 1,
  settings: { width: 600, backgroundColor: '#f3f4f6', contentColor: '#ffffff', linkColor: '#2563eb' },
  blocks: [
    { type: 'image', src: 'https://cdn.example.com/logo.png', alt: 'Example', width: 160 },
    { type: 'heading', text: 'The {{ month }} newsletter', level: 1, align: 'center' },
    { type: 'text', html: paragraph(1) },
    { type: 'button', text: 'Read the story', url: link('story'), align: 'center' },
    { type: 'divider' },
    { type: 'heading', text: 'Two things to try', level: 2 },
    { type: 'text', html: paragraph(2) },
    {
      type: 'columns',
      columns: [1, 2].map((n) => ({
        blocks: [...card(n), { type: 'button', text: 'Try it', url: link(`try${n}`) }],
      })),
    },
    { type: 'spacer', height: 24 },
    { type: 'heading', text: 'From the blog', level: 2 },
    { type: 'columns', columns: [3, 4, 5].map((n) => ({ blocks: card(n) })) },
    { type: 'text', html: paragraph(3) },
    { type: 'button', text: 'All posts', url: link('blog'), color: '#111827' },
    { type: 'divider' },
    {
      type: 'social',
      links: (['x', 'linkedin', 'github', 'mastodon'] as const).map((network) => ({
        network,
        url: `https://${network}.example.com/herald`,
      })),
    },
    { type: 'footer', address: 'Example Inc., 1 Main Street, Springfield' },
  ],
};

const mjCard = (n: number) =>
  `<mj-image src="https://cdn.example.com/card-${n}.png" alt="Card ${n}" href="${link(`card${n}`)}" />` +
  `<mj-text><p>Card ${n}: a short teaser with <a href="${link(`c${n}`)}">a link</a>.</p></mj-text>`;

/** The same newsletter, hand-written in MJML. */
export const newsletterMjml = `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="1.5" />
      <mj-section background-color="#ffffff" padding="10px 0px" />
      <mj-button background-color="#2563eb" font-size="16px" border-radius="4px" />
    </mj-attributes>
    <mj-style>a { color: #2563eb; }</mj-style>
  </mj-head>
  <mj-body width="600px" background-color="#f3f4f6">
    <mj-section><mj-column>
      <mj-image src="https://cdn.example.com/logo.png" alt="Example" width="160px" />
      <mj-text align="center" font-size="28px"><h1 style="margin:0">The {{ month }} newsletter</h1></mj-text>
      <mj-text>${paragraph(1)}</mj-text>
      <mj-button href="${link('story')}">Read the story</mj-button>
      <mj-divider border-width="1px" border-color="#e5e7eb" />
      <mj-text font-size="22px"><h2 style="margin:0">Two things to try</h2></mj-text>
      <mj-text>${paragraph(2)}</mj-text>
    </mj-column></mj-section>
    <mj-section>
      <mj-column>${mjCard(1)}<mj-button href="${link('try1')}">Try it</mj-button></mj-column>
      <mj-column>${mjCard(2)}<mj-button href="${link('try2')}">Try it</mj-button></mj-column>
    </mj-section>
    <mj-section><mj-column>
      <mj-spacer height="24px" />
      <mj-text font-size="22px"><h2 style="margin:0">From the blog</h2></mj-text>
    </mj-column></mj-section>
    <mj-section>
      <mj-column>${mjCard(3)}</mj-column><mj-column>${mjCard(4)}</mj-column><mj-column>${mjCard(5)}</mj-column>
    </mj-section>
    <mj-section><mj-column>
      <mj-text>${paragraph(3)}</mj-text>
      <mj-button href="${link('blog')}" background-color="#111827">All posts</mj-button>
      <mj-divider border-width="1px" border-color="#e5e7eb" />
      <mj-social icon-size="28px">
        <mj-social-element name="x-noshare" href="https://x.example.com/herald" />
        <mj-social-element name="linkedin-noshare" href="https://linkedin.example.com/herald" />
        <mj-social-element name="github-noshare" href="https://github.example.com/herald" />
        <mj-social-element name="web-noshare" href="https://mastodon.example.com/herald">Mastodon</mj-social-element>
      </mj-social>
      <mj-text align="center" font-size="12px">Example Inc., 1 Main Street, Springfield<br>
        {% if unsubscribeUrl %}<a href="{{ unsubscribeUrl }}">Unsubscribe</a>{% endif %}
        {% if manageUrl %} · <a href="{{ manageUrl }}">Manage preferences</a>{% endif %}</mj-text>
    </mj-column></mj-section>
  </mj-body>
</mjml>
`;

const htmlLayout = `<!doctype html><html><body style="background:#f3f4f6"><div style="max-width:600px;margin:0 auto">
{{ content }}
<p style="font-size:12px"><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p></div></body></html>`;

/** The newsletter's text as hand-written HTML, for the html format. */
const newsletterHtml = [1, 2, 3].map(paragraph).join('\n').repeat(4);

/**
 * A document of exactly MAX_BLOCKS blocks: every tenth a 3-column section holding an image in each column, the rest
 * headings and paragraphs (about 1,400 MJML elements, under MAX_MJML_ELEMENTS).
 */
function limitDocument() {
  const blocks: unknown[] = [];
  let count = 0;
  for (let i = 0; count < MAX_BLOCKS; i++) {
    if (i % 10 === 0 && count + 4 <= MAX_BLOCKS) {
      blocks.push({ type: 'columns', columns: [3, 4, 5].map((n) => ({ blocks: [card(n)[0]] })) });
      count += 4;
    } else {
      blocks.push(i % 2 ? { type: 'text', html: paragraph(i) } : { type: 'heading', text: `Part ${i}`, level: 2 });
      count += 1;
    }
  }
  return { version: 1, blocks };
}

/**
 * Wall-clock time per compile (mean, p50, p95) and the mean CPU time, which a busy machine inflates less: the
 * compile is synchronous, so on a quiet machine the two agree.
 */
function measure(label: string, input: CompileInput, iterations: number, warmup = WARMUP): void {
  let size = 0;
  for (let i = 0; i < warmup; i++) size = compileContent(input).html.length;
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    compileContent(input);
    times.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuStart);
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  const ms = (n: number) => `${fmt(n, 3).padStart(8)} ms`;
  console.log(
    `${label.padEnd(34)} mean ${ms(mean)} · p50 ${ms(percentile(times, 50))} · p95 ${ms(percentile(times, 95))} · ` +
      `CPU ${ms((cpu.user + cpu.system) / 1000 / iterations)} · output ${fmt(size / 1024, 1)} KB · ` +
      `${iterations} compiles`,
  );
}

export default async function run(): Promise<void> {
  console.log(`content benchmark · ${await machineLine()}`);
  console.log(`compile time per template, ${ITERATIONS} compiles each after ${WARMUP} of warm-up`);
  measure(
    'html in an html layout (baseline)',
    {
      format: 'html',
      body: newsletterHtml,
      layout: { format: 'html', source: htmlLayout },
    },
    ITERATIONS,
  );
  measure('mjml newsletter', { format: 'mjml', content: newsletterMjml }, ITERATIONS);
  measure('blocks newsletter (28 blocks)', { format: 'blocks', content: newsletterBlocks }, ITERATIONS);
  const runs = Math.max(3, Math.round(ITERATIONS / 40));
  measure(`blocks at the limit (${MAX_BLOCKS} blocks)`, { format: 'blocks', content: limitDocument() }, runs, 2);
}
