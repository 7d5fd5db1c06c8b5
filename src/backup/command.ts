// `herald backup <file>` and `herald restore <file>`: the whole database and the secrets that open it, in one file
// (see docs/backup.md).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pkg from '../../package.json' with { type: 'json' };
import type { Config } from '../config.ts';
import { DataDirLockedError, lockDataDir } from '../db/lock.ts';
import { readServerFile } from '../server-file.ts';
import { dumpEmbedded, embeddedDir, embeddedIsEmpty, gzip, restoreEmbedded } from './embedded.ts';
import {
  BackupError,
  openBackup,
  readDump,
  verifyBackup,
  writeBackup,
  type BackupMeta,
  type BackupSecrets,
  type SchemaState,
} from './format.ts';
import { parseObjectLine, splitFirstLine } from './lines.ts';
import { dumpPostgres, postgresContents, restorePostgres } from './postgres.ts';
import { newerSchemaProblem } from './schema-state.ts';
import { adminTokenOf, currentSecrets, planSecrets } from './secrets.ts';

export interface BackupCommandOptions {
  config: Readonly<Config>;
  file: string;
  passphraseFile: string | undefined;
}

/** The passphrase: the file's content without a final newline. */
function readPassphrase(file: string | undefined): string | null {
  if (file === undefined) return null;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new BackupError(`Cannot read the passphrase file ${file}: ${(error as Error).message}`);
  }
  const passphrase = text.replace(/\r?\n$/, '');
  if (!passphrase) throw new BackupError(`The passphrase file ${file} is empty.`);
  return passphrase;
}

interface Dumped {
  schema: SchemaState;
  secrets: BackupSecrets;
  postgres?: BackupMeta['postgres'];
  dump: AsyncIterable<Uint8Array>;
}

/** The embedded database dumped by the server that holds DATA_DIR, through its admin API. */
async function dumpThroughServer(config: Readonly<Config>, locked: DataDirLockedError): Promise<Dumped> {
  const server = readServerFile(config.dataDir);
  if (!server)
    throw new BackupError(
      `${locked.message}\nIt serves no API to take the backup through: run herald backup once it listens.`,
    );
  const token = adminTokenOf(config);
  if (!token) throw new BackupError('ADMIN_TOKEN is not set and DATA_DIR has no admin-token file: set ADMIN_TOKEN.');
  let response: Response;
  try {
    response = await fetch(new URL('/admin/backup', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    throw new BackupError(
      `Herald (pid ${server.pid}) holds the database, but ${server.url} did not answer: ${String(error)}`,
    );
  }
  if (!response.ok || !response.body) {
    const answer = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new BackupError(`${server.url}/admin/backup: ${response.status} ${answer?.message ?? response.statusText}`);
  }
  const split = await splitFirstLine(response.body as unknown as AsyncIterable<Uint8Array>);
  const head = split ? parseObjectLine(split.line) : null;
  if (!split || !head) throw new BackupError(`${server.url}/admin/backup answered no backup.`);
  const { schema, appSecret, adminToken } = head as { schema: SchemaState; appSecret: string; adminToken: string };
  return { schema, secrets: { appSecret, adminToken }, dump: gzip(split.rest) };
}

/** The embedded database of DATA_DIR: opened here when no Herald runs on it, else dumped by that Herald. */
async function dumpDataDir(config: Readonly<Config>): Promise<Dumped> {
  if (embeddedIsEmpty(config.dataDir))
    throw new BackupError(`There is no database in ${embeddedDir(config.dataDir)} to back up (DATA_DIR).`);
  let release: () => void;
  try {
    release = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) return dumpThroughServer(config, error);
    throw error;
  }
  try {
    const secrets = currentSecrets(config);
    const pglite = await PGlite.create({ dataDir: embeddedDir(config.dataDir) });
    try {
      const { schema, tar } = await dumpEmbedded(pglite);
      return { schema, secrets, dump: gzip(tar.stream() as unknown as AsyncIterable<Uint8Array>) };
    } finally {
      await pglite.close();
    }
  } finally {
    release();
  }
}

async function backup(opts: BackupCommandOptions): Promise<void> {
  const passphrase = readPassphrase(opts.passphraseFile);
  const { config } = opts;
  const createdAt = new Date().toISOString();
  const dumped: Dumped = config.databaseUrl
    ? { secrets: currentSecrets(config), ...(await dumpPostgres(config.databaseUrl)) }
    : await dumpDataDir(config);
  const meta: BackupMeta = {
    kind: config.databaseUrl ? 'postgres' : 'pglite',
    createdAt,
    heraldVersion: pkg.version,
    schema: dumped.schema,
    ...(dumped.postgres ? { postgres: dumped.postgres } : {}),
  };
  const { bytes } = await writeBackup({
    file: opts.file,
    meta,
    secrets: dumped.secrets,
    dump: dumped.dump,
    passphrase,
  });
  process.stdout.write(
    `Backed up the ${meta.kind === 'pglite' ? 'embedded database' : 'PostgreSQL database'}, APP_SECRET and the ` +
      `admin token to ${opts.file} (${(bytes / 1e6).toFixed(1)} MB, ${passphrase ? 'encrypted' : 'not encrypted'}).\n`,
  );
  if (!passphrase)
    process.stderr.write(
      'The file holds APP_SECRET and the admin token in clear: keep it as private as the database, ' +
        'or encrypt it with --passphrase-file.\n',
    );
}

const describeKind = (kind: 'pglite' | 'postgres') =>
  kind === 'pglite' ? 'the embedded database (PGlite)' : 'a PostgreSQL database';

/** Refuses a restore into a database of the other kind, or one that is not empty; null when the target is fine. */
async function targetProblem(config: Readonly<Config>, kind: 'pglite' | 'postgres'): Promise<string | null> {
  if (kind === 'pglite' && config.databaseUrl)
    return `it is a backup of ${describeKind(kind)}, and DATABASE_URL is set: unset it to restore into DATA_DIR.`;
  if (kind === 'postgres' && !config.databaseUrl)
    return `it is a backup of ${describeKind(kind)}: set DATABASE_URL to an empty PostgreSQL database to restore it.`;
  if (config.databaseUrl) {
    const contents = await postgresContents(config.databaseUrl);
    const name = decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1)) || 'of DATABASE_URL';
    if (contents)
      return (
        `the database ${name} is not empty: ${contents}. herald restore writes into an empty database only: ` +
        'create one (createdb) and point DATABASE_URL at it.'
      );
  } else if (!embeddedIsEmpty(config.dataDir)) {
    return (
      `${embeddedDir(config.dataDir)} already holds a database. herald restore writes into an empty DATA_DIR only: ` +
      'point DATA_DIR at a new folder.'
    );
  }
  return null;
}

async function restore(opts: BackupCommandOptions): Promise<void> {
  const { config, file } = opts;
  const passphrase = readPassphrase(opts.passphraseFile);
  const opened = await openBackup(file, passphrase);
  const { header } = opened;
  const refuse = (reason: string) => new BackupError(`Cannot restore ${file}: ${reason}`);
  const newer = newerSchemaProblem(header.schema);
  if (newer)
    throw refuse(`it was made by a newer Herald (${header.heraldVersion}): ${newer}. Restore it with that version.`);
  const problem = await targetProblem(config, header.kind);
  if (problem) throw refuse(problem);
  const secrets = await verifyBackup(opened);
  const plan = planSecrets(config, secrets);
  if (header.kind === 'postgres') {
    await restorePostgres(config.databaseUrl!, header, readDump(opened));
  } else {
    let release: () => void;
    try {
      release = lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) throw refuse(error.message);
      throw error;
    }
    try {
      if (!embeddedIsEmpty(config.dataDir)) throw refuse(`${embeddedDir(config.dataDir)} already holds a database.`);
      await restoreEmbedded(config.dataDir, readDump(opened));
    } finally {
      release();
    }
  }
  plan.write();
  if (!header.encryption && passphrase !== null)
    process.stderr.write(`${file} is not encrypted: the passphrase was not needed.\n`);
  for (const note of plan.notes) process.stderr.write(note + '\n');
  process.stdout.write(
    `Restored ${describeKind(header.kind)} of ${header.createdAt} (Herald ${header.heraldVersion}) and its secrets ` +
      `(${path.join(config.dataDir, 'app-secret')}, admin-token). Start Herald: it brings the schema up to date.\n`,
  );
}

/** Runs a backup or restore; an expected fault is one line on stderr and exit code 1, and nothing half-written. */
export async function runBackupCommand(command: 'backup' | 'restore', opts: BackupCommandOptions): Promise<void> {
  try {
    await (command === 'backup' ? backup(opts) : restore(opts));
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    const outcome = command === 'restore' ? ' Nothing was restored.' : '';
    process.stderr.write(`herald: ${error.message}${outcome}\n`);
    process.exitCode = 1;
  }
}
