// APP_SECRET and the admin token in a backup: taken from where Herald takes them (the environment, else the files
// Herald generated in DATA_DIR, see src/secrets.ts), and written back to those files by a restore.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { BackupError, type BackupSecrets } from './format.ts';

/** The files src/secrets.ts generates in DATA_DIR. */
const FILES = { appSecret: 'app-secret', adminToken: 'admin-token' } as const;
const SETTINGS = { appSecret: 'APP_SECRET', adminToken: 'ADMIN_TOKEN' } as const;

function readSecretFile(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * The secrets this configuration runs with, never generating one: a backup taken without the secret Herald runs
 * with would restore data nobody can decrypt.
 */
export function currentSecrets(config: Readonly<Config>): BackupSecrets {
  const find = (name: keyof BackupSecrets) => {
    const configured = name === 'appSecret' ? config.appSecret : config.adminToken;
    const file = path.join(config.dataDir, FILES[name]);
    const value = configured || readSecretFile(file);
    if (!value)
      throw new BackupError(
        `${SETTINGS[name]} is not set and ${file} does not exist: run herald backup with the settings Herald runs ` +
          `with (the same ${SETTINGS[name]}, or the same DATA_DIR).`,
      );
    return value;
  };
  return { appSecret: find('appSecret'), adminToken: find('adminToken') };
}

/** The admin token a command beside a running server authenticates with (the environment, else DATA_DIR's file). */
export function adminTokenOf(config: Readonly<Config>): string | null {
  return config.adminToken || readSecretFile(path.join(config.dataDir, FILES.adminToken));
}

/**
 * Checks that the backup's secrets can be put in place, before anything is restored: an APP_SECRET in the
 * environment must be the backup's (sealed values, DKIM keys and webhook secrets among them, decrypt with that one
 * only), and a secret file already in DATA_DIR must hold the backup's value. Answers notes for the operator and the
 * writing of the files, done once the database is restored.
 */
export function planSecrets(config: Readonly<Config>, secrets: BackupSecrets): { notes: string[]; write(): void } {
  if (config.appSecret && config.appSecret !== secrets.appSecret)
    throw new BackupError(
      'APP_SECRET is set to another value than the backup was made with: what the backup keeps sealed ' +
        '(DKIM keys, webhook secrets, two-factor secrets) opens with its own APP_SECRET only. Unset APP_SECRET ' +
        `(the restore writes the backup's to ${path.join(config.dataDir, FILES.appSecret)}) or set it to the ` +
        "backup's value, then run herald restore again.",
    );
  const pending: { file: string; value: string }[] = [];
  for (const name of ['appSecret', 'adminToken'] as const) {
    const file = path.join(config.dataDir, FILES[name]);
    const present = readSecretFile(file);
    if (present === null) pending.push({ file, value: secrets[name] });
    else if (present !== secrets[name])
      throw new BackupError(
        `${file} holds another ${SETTINGS[name]} than the backup's: move it away (it belongs to another ` +
          'instance), then run herald restore again.',
      );
  }
  const notes: string[] = [];
  if (config.adminToken && config.adminToken !== secrets.adminToken)
    notes.push(
      `ADMIN_TOKEN is set and stays in use; the backup's admin token is in ` +
        `${path.join(config.dataDir, FILES.adminToken)} for a Herald started without ADMIN_TOKEN.`,
    );
  return {
    notes,
    write() {
      fs.mkdirSync(config.dataDir, { recursive: true });
      for (const { file, value } of pending) fs.writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
    },
  };
}
