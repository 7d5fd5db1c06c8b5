import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import type { Secrets } from './context.types.ts';

/** Reads a generated secret from DATA_DIR, creating it (mode 0600) the first time. */
function readOrCreate(file: string, make: () => string): { value: string; created: boolean } {
  try {
    return { value: fs.readFileSync(file, 'utf8').trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const value = make();
  try {
    fs.writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
    return { value, created: true };
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return { value: fs.readFileSync(file, 'utf8').trim(), created: false };
    throw error;
  }
}

/** The admin token and app secret: from the environment, else generated once into DATA_DIR. */
export function loadSecrets(config: Readonly<Config>): Secrets & { generatedAdminToken: boolean } {
  const admin = config.adminToken
    ? { value: config.adminToken, created: false }
    : readOrCreate(path.join(config.dataDir, 'admin-token'), () => 'adm_' + randomBytes(24).toString('base64url'));
  const app = config.appSecret
    ? { value: config.appSecret, created: false }
    : readOrCreate(path.join(config.dataDir, 'app-secret'), () => randomBytes(32).toString('base64url'));
  return { adminToken: admin.value, appSecret: app.value, generatedAdminToken: admin.created };
}
