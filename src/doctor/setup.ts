// The configuration and the two secrets, as doctor finds them; it never generates a missing secret (a server does at
// its first start), since a secret made here would differ from the one the running processes use.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Secrets } from '../context.types.ts';
import { fail, ok, warn, type CheckRow } from './rows.ts';

/** Where doctor's database checks and the running processes find the database, without its password. */
export function databaseLabel(config: Readonly<Config>): string {
  if (!config.databaseUrl) return `embedded (PGlite) in ${path.join(config.dataDir, 'db')}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/** The row of a configuration that loaded: what Herald runs on. */
export function configRow(config: Readonly<Config>): CheckRow {
  const dns = config.dnsServers.length > 0 ? config.dnsServers.join(', ') : 'system resolvers';
  return ok(
    'configuration',
    `${config.mailTransport} transport, ${databaseLabel(config)}, DNS through ${dns}, DATA_DIR ${config.dataDir}`,
  );
}

interface SecretSource {
  variable: 'ADMIN_TOKEN' | 'APP_SECRET';
  file: string;
  value: string | null;
  from: 'environment' | 'file' | 'missing';
  /** Why the file cannot serve (unreadable, empty), or null. */
  problem: string | null;
  /** The file may be read by other users. */
  exposed: boolean;
}

function readSecret(variable: SecretSource['variable'], fromEnv: string | undefined, file: string): SecretSource {
  const base = { variable, file, problem: null, exposed: false };
  if (fromEnv) return { ...base, value: fromEnv, from: 'environment' };
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    const exposed = (fs.statSync(file).mode & 0o077) !== 0;
    if (!value) return { ...base, value: null, from: 'file', problem: `${file} is empty` };
    return { ...base, value, from: 'file', exposed };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ...base, value: null, from: 'missing' };
    return { ...base, value: null, from: 'file', problem: `${file}: ${code ?? String(error)}` };
  }
}

export interface FoundSecrets {
  admin: SecretSource;
  app: SecretSource;
  /** What a context built by doctor is given: the secrets found, empty where there is none. */
  secrets: Secrets;
}

/** The admin token and app secret as the server would take them (environment, else DATA_DIR), created nowhere. */
export function findSecrets(config: Readonly<Config>): FoundSecrets {
  const admin = readSecret('ADMIN_TOKEN', config.adminToken, path.join(config.dataDir, 'admin-token'));
  const app = readSecret('APP_SECRET', config.appSecret, path.join(config.dataDir, 'app-secret'));
  return { admin, app, secrets: { adminToken: admin.value ?? '', appSecret: app.value ?? '' } };
}

/** The secrets row: present and readable, from where, and kept from other users. */
export function secretsRow(config: Readonly<Config>, found: FoundSecrets): CheckRow {
  const both = [found.admin, found.app];
  const broken = both.filter((s) => s.problem);
  if (broken.length > 0) {
    return fail(
      'secrets',
      broken.map((s) => `${s.variable}: ${s.problem}`).join('; '),
      `Make the file readable by the user Herald runs as, or set ${broken.map((s) => s.variable).join(' and ')}.`,
    );
  }
  const missing = both.filter((s) => s.from === 'missing');
  if (missing.length > 0) {
    const names = missing.map((s) => s.variable).join(' and ');
    return config.databaseUrl
      ? warn(
          'secrets',
          `${names} not set, and not in DATA_DIR either`,
          `Set ${names} in the environment, the same values in every Herald process on this database.`,
        )
      : warn(
          'secrets',
          `${names} not made yet: a server generates ${missing.length > 1 ? 'them' : 'it'} in DATA_DIR at first start`,
          `Start Herald once (herald serve), or set ${names}.`,
        );
  }
  const exposed = both.filter((s) => s.exposed);
  if (exposed.length > 0) {
    return warn(
      'secrets',
      `${exposed.map((s) => s.file).join(' and ')} may be read by other users of this machine`,
      `chmod 600 ${exposed.map((s) => s.file).join(' ')}`,
    );
  }
  const where = both.map((s) => `${s.variable} from ${s.from === 'environment' ? 'the environment' : s.file}`);
  // Every process on one PostgreSQL database decrypts the same DKIM keys, so they need one APP_SECRET.
  const shared = config.databaseUrl && found.app.from === 'file' ? ' (every process on this database needs it)' : '';
  return ok('secrets', `${where.join(', ')}${shared}`);
}
