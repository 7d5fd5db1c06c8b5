#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=2 --max-old-space-size=1024 --heap-growing-percent=50
// The settings above hold a sending process near its live size (measured in `npm run bench -- campaign`):
// - 2 MB semi-spaces instead of 16 MB: messages are short-lived garbage, and the default young generation
//   lets the heap sit ~30 MB higher for nothing (peak RSS 318 → 286 MB at 20,000 recipients);
// - a 1 GB old generation instead of ~4 GB on a large machine: V8 lets the old generation grow to a multiple
//   of its live size before it collects it, and that multiple shrinks with the limit. A campaign's fan-out
//   promotes a lot of short-lived rows, and with the default the main heap reached ~150 MB around ~40 MB live;
//   with 1 GB it stays under ~85 MB (peak RSS at 10,000 recipients 285 → 179 MB, send rate the same);
// - the old generation collected once it has grown by half since the last full collection; V8 otherwise picks a
//   factor of its own, larger while the heap grows fast, as through a campaign (peak RSS at 20,000 recipients
//   201–205 → 197–199 MB in alternating runs, CPU per email the same);
// - two glibc malloc arenas instead of up to eight per core: the compose threads, libuv's pool and V8's own
//   threads otherwise each fragment an arena of their own (peak RSS at 100,000 recipients ~200 → ~192 MB,
//   at 20,000 ~193 → ~189 MB, for ~3 % of the send rate at 20,000). Other C libraries ignore the variable.
// `npm start` runs this file, so the settings apply there too.
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
