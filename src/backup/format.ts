// The backup file: one JSON header line, then the body. The body is a JSON line with APP_SECRET and the admin token,
// then the database dump (PGlite: its data folder as a gzipped tar; PostgreSQL: pg_dump's custom format). With a
// passphrase the body is AES-256-GCM ciphertext followed by its 16-byte tag, under a key derived with scrypt from the
// passphrase and a random salt kept in the header; the header is the cipher's additional data, so it cannot be changed
// either. `sha256` covers the whole file with its own value zeroed: a truncated or damaged file is refused before
// anything is written.
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt,
  type DecipherGCM,
  type ScryptOptions,
} from 'node:crypto';
import { z } from 'zod';
import { parseObjectLine, prependLine, splitFirstLine } from './lines.ts';

export class BackupError extends Error {
  override name = 'BackupError';
}

export const FORMAT = 'herald-backup';
export const FORMAT_VERSION = 1;
const ZERO_SHA = '0'.repeat(64);
const TAG_BYTES = 16;
const HEADER_LIMIT = 64 * 1024;
// 128 MB of memory and about half a second per derivation: slow to guess, quick enough to type once.
const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;

const schemaState = z.object({ migrations: z.number().int().nonnegative(), last: z.number().nullable() });

const headerSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(FORMAT_VERSION),
  kind: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  heraldVersion: z.string(),
  /** The schema migrations applied to the database when it was dumped: how many, and the last one's timestamp. */
  schema: schemaState,
  /** PostgreSQL only: the server's version and pg_dump's, for the matching pg_restore. */
  postgres: z.object({ server: z.string(), pgDump: z.string() }).optional(),
  encryption: z
    .object({
      cipher: z.literal('aes-256-gcm'),
      kdf: z.literal('scrypt'),
      N: z.number().int(),
      r: z.number().int(),
      p: z.number().int(),
      salt: z.string(),
      iv: z.string(),
      /** A hash of key material beside the cipher key: a wrong passphrase is told apart from a damaged file. */
      check: z.string(),
    })
    .nullable(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type BackupHeader = z.infer<typeof headerSchema>;
export type SchemaState = z.infer<typeof schemaState>;
/** What the dumping side knows; the format and encryption fields are added when the file is written. */
export type BackupMeta = Pick<BackupHeader, 'kind' | 'createdAt' | 'heraldVersion' | 'schema' | 'postgres'>;

export interface BackupSecrets {
  appSecret: string;
  adminToken: string;
}

const secretsSchema = z.object({ appSecret: z.string().min(1), adminToken: z.string().min(1) });

function deriveKeys(passphrase: string, salt: Buffer, cost: ScryptOptions): Promise<{ key: Buffer; check: string }> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, 64, { ...cost, maxmem: 256 * 1024 * 1024 }, (error, material) => {
      if (error) return reject(error);
      resolve({
        key: material.subarray(0, 32),
        check: createHash('sha256').update(material.subarray(32)).digest('hex'),
      });
    });
  });
}

/** The header line as hashed and authenticated: its own checksum zeroed. */
function zeroedLineOf(line: string): string | null {
  const pattern = /,"sha256":"[0-9a-f]{64}"\}$/;
  return pattern.test(line) ? line.replace(pattern, `,"sha256":"${ZERO_SHA}"}`) : null;
}

/**
 * Writes a backup of `dump` and `secrets` to `file` (mode 0600), encrypted when a passphrase is given. The file
 * appears whole or not at all: it is written beside its place and renamed there once complete.
 */
export async function writeBackup(opts: {
  file: string;
  meta: BackupMeta;
  secrets: BackupSecrets;
  dump: AsyncIterable<Uint8Array>;
  passphrase: string | null;
}): Promise<{ bytes: number }> {
  let key: Buffer | null = null;
  let encryption: BackupHeader['encryption'] = null;
  if (opts.passphrase !== null) {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const derived = await deriveKeys(opts.passphrase, salt, SCRYPT_COST);
    key = derived.key;
    encryption = {
      cipher: 'aes-256-gcm',
      kdf: 'scrypt',
      ...SCRYPT_COST,
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      check: derived.check,
    };
  }
  const header: BackupHeader = { format: FORMAT, version: FORMAT_VERSION, ...opts.meta, encryption, sha256: ZERO_SHA };
  const line = JSON.stringify(header);
  const partial = `${opts.file}.partial`;
  try {
    await fs.promises.writeFile(partial, line + '\n', { mode: 0o600 });
    await fs.promises.chmod(partial, 0o600);
    const hash = createHash('sha256').update(line + '\n');
    const cipher = key && encryption ? createCipheriv('aes-256-gcm', key, Buffer.from(encryption.iv, 'base64')) : null;
    cipher?.setAAD(Buffer.from(line, 'utf8'));
    await pipeline(
      prependLine(JSON.stringify(opts.secrets), opts.dump),
      async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          const out = cipher ? cipher.update(chunk) : chunk;
          hash.update(out);
          yield out;
        }
        if (cipher) {
          const tail = Buffer.concat([cipher.final(), cipher.getAuthTag()]);
          hash.update(tail);
          yield tail;
        }
      },
      fs.createWriteStream(partial, { flags: 'a' }),
    );
    const handle = await fs.promises.open(partial, 'r+');
    try {
      await handle.write(line.replace(`"sha256":"${ZERO_SHA}"`, `"sha256":"${hash.digest('hex')}"`), 0, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(partial, opts.file);
    return { bytes: (await fs.promises.stat(opts.file)).size };
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    if (error instanceof BackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code && (error as NodeJS.ErrnoException).syscall)
      throw new BackupError(`Cannot write ${opts.file}: ${(error as Error).message}`);
    throw error;
  }
}

/** A backup file whose header was read (and passphrase checked); its body is read by `verifyBackup` and `readDump`. */
export interface OpenedBackup {
  file: string;
  header: BackupHeader;
  zeroedLine: string;
  bodyOffset: number;
  size: number;
  key: Buffer | null;
}

async function readHead(file: string): Promise<{ head: Buffer; size: number }> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, HEADER_LIMIT));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { head: head.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

/** Reads a backup's header and checks the passphrase (an encrypted backup needs one); the body is not read yet. */
export async function openBackup(file: string, passphrase: string | null): Promise<OpenedBackup> {
  const { head, size } = await readHead(file);
  const end = head.indexOf(10);
  const line = end >= 0 ? head.subarray(0, end).toString('utf8') : '';
  const fields = parseObjectLine(line);
  if (!fields || fields.format !== FORMAT) throw new BackupError(`${file} is not a Herald backup.`);
  if (fields.version !== FORMAT_VERSION)
    throw new BackupError(
      `${file} is a backup of format ${String(fields.version)}, made by a newer Herald ` +
        `(${String(fields.heraldVersion)}); this Herald reads format ${FORMAT_VERSION}: restore it with that version.`,
    );
  const parsed = headerSchema.safeParse(fields);
  const zeroedLine = zeroedLineOf(line);
  if (!parsed.success || !zeroedLine) throw new BackupError(`${file} is damaged: its header is not readable.`);
  const header = parsed.data;
  let key: Buffer | null = null;
  if (header.encryption) {
    if (passphrase === null)
      throw new BackupError(`${file} is encrypted: pass --passphrase-file <a file holding its passphrase>.`);
    const { N, r, p, salt, check } = header.encryption;
    const derived = await deriveKeys(passphrase, Buffer.from(salt, 'base64'), { N, r, p }).catch(() => {
      throw new BackupError(`${file} is damaged: its encryption settings are not usable.`);
    });
    if (derived.check !== check)
      throw new BackupError(`Wrong passphrase for ${file} (the passphrase file's content, without a final newline).`);
    key = derived.key;
  }
  return { file, header, zeroedLine, bodyOffset: end + 1, size, key };
}

const damaged = (file: string) =>
  new BackupError(`${file} is damaged (truncated or changed since it was written): its checksum does not match.`);

/** The body's plaintext; throws at the end when the checksum or the cipher's tag does not match. */
async function* plainBody(backup: OpenedBackup): AsyncGenerator<Uint8Array> {
  const { file, header, key, size, bodyOffset } = backup;
  const hash = createHash('sha256').update(backup.zeroedLine + '\n');
  const cipherBytes = size - bodyOffset - (key ? TAG_BYTES : 0);
  if (cipherBytes < 0) throw damaged(file);
  let decipher: DecipherGCM | null = null;
  if (key && header.encryption) {
    const tag = Buffer.alloc(TAG_BYTES);
    const handle = await fs.promises.open(file, 'r');
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES).finally(() => handle.close());
    decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(header.encryption.iv, 'base64'));
    decipher.setAAD(Buffer.from(backup.zeroedLine, 'utf8'));
    decipher.setAuthTag(tag);
  }
  let seen = 0;
  const body = size > bodyOffset ? fs.createReadStream(file, { start: bodyOffset, end: size - 1 }) : [];
  for await (const chunk of body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    const part = chunk.subarray(0, Math.max(0, Math.min(chunk.length, cipherBytes - seen)));
    seen += chunk.length;
    if (part.length > 0) yield decipher ? decipher.update(part) : part;
  }
  if (seen !== size - bodyOffset || hash.digest('hex') !== header.sha256) throw damaged(file);
  if (decipher) {
    let last: Buffer;
    try {
      last = decipher.final();
    } catch {
      throw new BackupError(`${file} failed authentication: it was changed after it was written.`);
    }
    if (last.length > 0) yield last;
  }
}

/** Reads the whole body once, checking it (checksum, and the cipher's tag); answers the secrets it carries. */
export async function verifyBackup(backup: OpenedBackup): Promise<BackupSecrets> {
  const split = await splitFirstLine(plainBody(backup));
  const secrets = split ? secretsSchema.safeParse(parseObjectLine(split.line)) : null;
  // The whole body is read before the secrets line is judged: a damaged file says so rather than "no secrets".
  if (split) for await (const _chunk of split.rest);
  if (!secrets?.success) throw damaged(backup.file);
  return secrets.data;
}

/** The database dump of a verified backup, read (and checked) again as it is consumed. */
export async function* readDump(backup: OpenedBackup): AsyncGenerator<Uint8Array> {
  const split = await splitFirstLine(plainBody(backup));
  if (!split) throw damaged(backup.file);
  yield* split.rest;
}
