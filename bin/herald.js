#!/usr/bin/env -S node --max-semi-space-size=2
// The V8 setting above keeps a sending process's young generation small (2 MB semi-spaces instead of 16 MB):
// messages are short-lived garbage, and the default lets the heap sit ~30 MB higher for nothing (issue 10:
// peak RSS of `serve` during a 20,000-recipient campaign 318 → 286 MB, send rate unchanged within the noise).
// `npm start` runs this file, so the setting applies there too.
// The `herald` command (package.json "bin"): the built server (dist/, made by `npm install`), or the
// TypeScript source through tsx when it has not been built.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

if (existsSync(new URL('../dist/cli.mjs', import.meta.url))) {
  await import('../dist/cli.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
