/**
 * The pre-send check's own cost, in process on one thread after a warm-up: the content analysis of a campaign
 * (`checkHtml`: parsing the HTML for links and images, and its text) and the data keys its Liquid reads, on the
 * campaign benches' small newsletter and on a 100 KB one; the baseline is deriving the plain-text part from the same
 * HTML (`htmlToText`), which every campaign email already pays at delivery. The DNS lookups (at most 20 blocklist
 * names, cached, and one DMARC lookup) and the audience count are one round trip each, apart from this.
 * BENCH_ITERATIONS (default 200) calls per figure.
 */
import { checkHtml } from '../src/modules/checks/checks.content.ts';
import { dataKeysRead } from '../src/modules/checks/checks.variables.ts';
import { htmlToText } from '../src/mail/render.ts';
import { bigNewsletter, newsletter } from './herald-process.ts';
import { fmt, machineLine, percentile } from './support.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const WARMUP = 20;

function time(fn: () => unknown): { p50: number; p95: number } {
  for (let i = 0; i < WARMUP; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

export default async function run(): Promise<void> {
  console.log(`deliverability benchmark · ${await machineLine()}`);
  const messages = [
    { name: 'newsletter', html: newsletter('bench.test').body },
    { name: 'newsletter 100 KB', html: bigNewsletter('bench.test', 100).body },
  ];
  console.log(
    `\n${'message'.padEnd(20)} ${'KB'.padStart(6)} ${'check ms p50/p95'.padStart(18)} ` +
      `${'data keys ms'.padStart(13)} ${'baseline: text ms'.padStart(18)} ${'check/text'.padStart(11)}`,
  );
  for (const { name, html } of messages) {
    const check = time(() => checkHtml(html, { marketing: true }));
    const keys = time(() => dataKeysRead([html]));
    const text = time(() => htmlToText(html));
    console.log(
      `${name.padEnd(20)} ${fmt(html.length / 1024, 1).padStart(6)} ` +
        `${`${fmt(check.p50, 2)} / ${fmt(check.p95, 2)}`.padStart(18)} ${fmt(keys.p50, 2).padStart(13)} ` +
        `${`${fmt(text.p50, 2)} / ${fmt(text.p95, 2)}`.padStart(18)} ` +
        `${`${fmt(check.p50 / text.p50, 2)}×`.padStart(11)}`,
    );
  }
  console.log('\nper call, one thread; a campaign is checked once per check or send, not per recipient');
}
