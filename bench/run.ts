// Runs one benchmark: `npm run bench -- <name>` imports bench/<name>.ts and awaits its default export.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const name = process.argv[2];
if (!name || !/^[a-z0-9][a-z0-9-]*$/.test(name)) {
  console.error('usage: npm run bench -- <name>   (runs bench/<name>.ts)');
  process.exit(2);
}
// Ctrl-C or a kill ends the bench through process.exit, so the herald processes it started are killed too
// (test/support/child.ts), rather than left sending.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
// Benches run Herald as `npm start` does (dist/): build it from the current source first.
execFileSync(process.execPath, ['--import', 'tsx', 'build/server.ts'], {
  stdio: 'inherit',
  cwd: fileURLToPath(new URL('..', import.meta.url)),
});
const bench = (await import(`./${name}.ts`)) as { default?: () => Promise<void> };
if (typeof bench.default !== 'function') {
  console.error(`bench/${name}.ts has no default export function`);
  process.exit(2);
}
await bench.default();
