#!/usr/bin/env node
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
