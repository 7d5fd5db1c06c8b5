import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (where package.json is), for tests that read or run its files. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
