import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard: built into web/dist, which the API process serves at `/` (src/plugins/dashboard.ts).
// `npm run dev:web` serves it with hot reload and sends API calls to a Herald on :3000.
const apiPaths = [
  '/admin',
  '/contacts',
  '/events',
  '/templates',
  '/domains',
  '/campaigns',
  '/segments',
  '/emails',
  '/suppressions',
  '/workflows',
  '/webhooks',
  '/transports',
  '/routing',
  '/v1',
  '/openapi.json',
  '/docs',
  '/healthz',
  '/readyz',
  '/auth',
  '/team',
  '/audit-log',
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 800 },
  server: { proxy: Object.fromEntries(apiPaths.map((p) => [p, 'http://127.0.0.1:3000'])) },
});
