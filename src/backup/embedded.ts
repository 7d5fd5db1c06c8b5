// Backup and restore of the embedded database (PGlite): its data folder as a tar, taken between transactions.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { BackupError, type SchemaState } from './format.ts';
import { readSchemaState } from './schema-state.ts';

/** Where the embedded database of DATA_DIR lives (as the runtime opens it). */
export const embeddedDir = (dataDir: string) => path.join(dataDir, 'db');

/**
 * The data folder of a running (or just opened) embedded database as an uncompressed tar, with its schema state.
 * PGlite runs one statement at a time: waiting for the open transaction to end and holding the next one off while
 * the folder is copied makes the copy consistent, as of the last commit. A checkpoint first writes the changed pages
 * out, so the restored copy has little log to replay.
 */
export async function dumpEmbedded(pglite: PGlite): Promise<{ schema: SchemaState; tar: Blob }> {
  const schema = await readSchemaState(async (text) => (await pglite.query<Record<string, unknown>>(text)).rows);
  await pglite.exec('CHECKPOINT');
  const tar = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir('none'));
  return { schema, tar };
}

/** Gzips a stream of bytes. */
export function gzip(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  // Level 1: a third of the time of the default level, for files about a tenth larger.
  const zipped = createGzip({ level: 1 });
  pipeline(Readable.from(source), zipped).catch((error: unknown) => zipped.destroy(error as Error));
  return zipped;
}

/** True when DATA_DIR holds no embedded database (no folder, or an empty one). */
export function embeddedIsEmpty(dataDir: string): boolean {
  const dir = embeddedDir(dataDir);
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

/**
 * Unpacks a gzipped data-folder tar into DATA_DIR/db. The database is started once beside its place (PGlite replays
 * the log of a copy taken while serving), closed, and only then renamed into place: an interrupted restore leaves
 * no half database where Herald would open it.
 */
export async function restoreEmbedded(dataDir: string, dump: AsyncIterable<Uint8Array>): Promise<void> {
  const parts: Uint8Array[] = [];
  const gunzip = createGunzip();
  const collecting = (async () => {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) parts.push(chunk);
  })();
  await pipeline(Readable.from(dump), gunzip).catch((error: unknown) => {
    throw error instanceof BackupError ? error : new BackupError(`The database dump is unreadable: ${String(error)}`);
  });
  await collecting;
  const target = embeddedDir(dataDir);
  const staging = path.join(dataDir, `.db-restoring-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    const pglite = await PGlite.create({ dataDir: staging, loadDataDir: new Blob(parts) });
    await pglite.query('SELECT 1');
    await pglite.close();
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(staging, target);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
