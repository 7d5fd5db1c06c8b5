// Builds the dashboard into web/dist; npm runs it on `npm install` and `npm ci` (the `prepare` script).
// Without dev dependencies (`npm install --omit=dev`) there is no Vite: the build is skipped with a note,
// and the server's `/` explains how to build it.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
try {
  require.resolve('vite');
} catch {
  console.warn(
    'herald: Vite is not installed (dev dependencies omitted); the dashboard was not built. ' +
      'Run `npm install` then `npm run build:web`.',
  );
  process.exit(0);
}
const { build } = await import('vite');
process.env.NODE_ENV = 'production'; // a NODE_ENV=development in the shell must not ship React's development build
await build({
  configFile: fileURLToPath(new URL('vite.config.ts', import.meta.url)),
  mode: 'production',
  logLevel: 'warn',
});
console.log('herald: dashboard built into web/dist');
