// Global setup of the end-to-end run: builds the dashboard from the current source, so the browser tests
// what is in web/src (npm install built it once; this keeps it fresh while working).
import { build } from 'vite';

export default async function setup(): Promise<void> {
  // Vite follows NODE_ENV, which vitest sets to "test": the browser must get the production build of React.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: new URL('../../web/vite.config.ts', import.meta.url).pathname, mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
