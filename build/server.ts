// Builds the server into dist/ (npm runs it on install, and `npm start` before starting): one ES module for
// the process and one for the compose threads, with the migrations next to them. Running plain JavaScript
// instead of compiling TypeScript at start saves about 90 MB of memory per process and most of the start-up.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { dependencies: Record<string, string> };
// Dependencies stay in node_modules, loaded from there at run time.
const external = Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]);

rmSync(`${root}/dist`, { recursive: true, force: true });
await build({
  // Thread entries sit next to cli.mjs, where the pools look for them (compose-, render- and receive-thread.mjs).
  entryPoints: {
    cli: `${root}/src/cli.ts`,
    'compose-thread': `${root}/src/mail/compose-pool/compose-thread.ts`,
    'render-thread': `${root}/src/mail/render-thread.ts`,
    'receive-thread': `${root}/src/mail/receive-pool/receive-thread.ts`,
  },
  outdir: `${root}/dist`,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Bundled CommonJS helpers may call require(): give the ES module one.
  banner: {
    js:
      "import { createRequire as __heraldRequire } from 'node:module'; const require = " +
      '__heraldRequire(import.meta.url);',
  },
});
// esbuild escapes every non-ASCII character of strings, regular expressions and names, but keeps comments as
// written. One such character (an arrow, a dash) makes V8 hold the whole module's source as two bytes per
// character: 3.6 MB of heap for cli.mjs instead of 1.8. They are written as escapes in the comments too.
for (const file of readdirSync(`${root}/dist`).filter((name) => name.endsWith('.mjs'))) {
  const source = readFileSync(`${root}/dist/${file}`, 'utf8');
  // eslint-disable-next-line no-control-regex
  const ascii = source.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  if (ascii !== source) writeFileSync(`${root}/dist/${file}`, ascii);
}
cpSync(`${root}/src/db/migrations`, `${root}/dist/migrations`, { recursive: true });
// Data files read at run time from the same relative place as in the source tree.
cpSync(`${root}/src/modules/verify/domain-lists`, `${root}/dist/domain-lists`, { recursive: true });
