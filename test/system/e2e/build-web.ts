// Global setup of the end-to-end run: builds the dashboard from the current source, so the browser tests
// what is in web/src (npm install built it once; this keeps it fresh while working).
import path from 'node:path';
import { build } from 'vite';
import { repoRoot } from '../../support/paths.ts';

export default async function setup(): Promise<void> {
  // Vite follows NODE_ENV, which vitest sets to "test": the browser must get the production build of React.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(repoRoot, 'web/vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
