// The files a hosted or embedded form loads from Herald (never from a third party): its stylesheet, and for
// proof of work the ALTCHA widget (the build without inline styles or workers, for a strict CSP), its stylesheet,
// its SHA worker, and a loader that registers the worker (same origin, or through a blob on another site).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORM_CSS } from './forms.pages.ts';

export interface Asset {
  type: string;
  body: string;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

const LOADER = `import './altcha.js';
const worker = new URL('./altcha-sha.js', import.meta.url);
if (!document.querySelector('link[data-herald-altcha]')) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('./altcha.css', import.meta.url).href;
  link.dataset.heraldAltcha = '';
  document.head.append(link);
}
const source = 'importScripts(' + JSON.stringify(worker.href) + ');';
const create =
  worker.origin === location.origin
    ? () => new Worker(worker)
    : () => new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
for (const name of ['SHA-256', 'SHA-384', 'SHA-512']) globalThis.$altcha.algorithms.set(name, create);
`;

/** The files by name, read once from the installed widget package. */
export function loadFormAssets(): Map<string, Asset> {
  // The package exports its external build; its dist folder holds the stylesheet and the workers beside it.
  const external = fileURLToPath(import.meta.resolve('altcha/external'));
  const dist = path.dirname(path.dirname(external));
  const read = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8');
  return new Map([
    ['form.css', { type: CSS, body: FORM_CSS }],
    ['widget.js', { type: JS, body: LOADER }],
    ['altcha.js', { type: JS, body: read('external/altcha.min.js') }],
    ['altcha.css', { type: CSS, body: read('external/altcha.css') }],
    ['altcha-sha.js', { type: JS, body: read('workers/sha.js') }],
  ]);
}
