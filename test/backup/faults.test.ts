// What `herald backup` and `herald restore` refuse, each with one clear line and exit code 1 (2 for usage), and
// nothing written: a target that is not empty, a damaged, truncated or changed file, a wrong or missing passphrase,
// an APP_SECRET that would not open the backup's sealed values, a backup of the other database or of a newer Herald.
// The same empty target takes every refused restore, then a real one, which it must still accept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, APP_SECRET } from '../support/app.ts';
import { testDatabaseKind } from '../support/database.ts';
import {
  emptyPlace,
  herald,
  migratedPlace,
  passphraseFile,
  tableCounts,
  type CliResult,
  type Place,
} from './places.ts';

const PASSPHRASE = 'a long passphrase kept elsewhere';

/** The file with its header changed by `edit` and, when `reseal`, its checksum made right again. */
function rewrite(file: string, out: string, edit: (header: Record<string, unknown>) => void, reseal = false): string {
  const bytes = fs.readFileSync(file);
  const end = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, end).toString()) as Record<string, unknown>;
  edit(header);
  const zeroed = JSON.stringify({ ...header, sha256: '0'.repeat(64) });
  const body = bytes.subarray(end + 1);
  const sha256 = reseal
    ? createHash('sha256')
        .update(zeroed + '\n')
        .update(body)
        .digest('hex')
    : (header.sha256 as string);
  fs.writeFileSync(out, Buffer.concat([Buffer.from(JSON.stringify({ ...header, sha256 }) + '\n'), body]));
  return out;
}

describe(`herald backup and restore refuse (${testDatabaseKind})`, { timeout: 180_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-backup-faults-'));
  const pass = passphraseFile(dir, PASSPHRASE);
  const plain = path.join(dir, 'plain.hbk');
  const sealed = path.join(dir, 'sealed.hbk');
  let source: Place;
  let target: Place;
  let sourceEnv: Record<string, string>;

  beforeAll(async () => {
    source = await migratedPlace();
    target = await emptyPlace();
    sourceEnv = { ...source.env, APP_SECRET, ADMIN_TOKEN };
    // One at a time: on PGlite the first holds the data folder while it dumps it.
    const made = [
      await herald(['backup', plain], sourceEnv),
      await herald(['backup', sealed, '--passphrase-file', pass], sourceEnv),
    ];
    for (const result of made) expect(result.code, result.stderr).toBe(0);
  });

  afterAll(async () => {
    await source?.drop();
    await target?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A refused restore into the empty target: exit 1, the message, and the target still empty. */
  async function refused(args: string[], message: RegExp, env: Record<string, string> = {}): Promise<CliResult> {
    const result = await herald(['restore', ...args], { ...target.env, ...env });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Nothing was restored\.\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(target.dataDir)).toEqual([]);
    if (target.databaseUrl) expect(await tableCounts(target)).toEqual({});
    return result;
  }

  it('writes the file with mode 0600; encrypted, no secret is readable in it', () => {
    for (const file of [plain, sealed]) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const clear = fs.readFileSync(plain).toString('latin1');
    expect(clear).toContain(APP_SECRET);
    const encrypted = fs.readFileSync(sealed).toString('latin1');
    expect(encrypted).not.toContain(APP_SECRET);
    expect(encrypted).not.toContain(ADMIN_TOKEN);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('refuses a database that is not empty and changes nothing in it', async () => {
    const before = await tableCounts(source);
    const result = await herald(['restore', plain], sourceEnv);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      testDatabaseKind === 'pglite'
        ? /already holds a database\. herald restore writes into an empty DATA_DIR only/
        : /is not empty: it has \d+ tables.*herald restore writes into an empty database only/,
    );
    expect(await tableCounts(source)).toEqual(before);
    expect(fs.readdirSync(source.dataDir).filter((name) => name !== 'db')).toEqual([]);
  });

  it('refuses a truncated file before writing anything', async () => {
    const bytes = fs.readFileSync(plain);
    const cut = path.join(dir, 'cut.hbk');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    await refused([cut], /cut\.hbk is damaged \(truncated or changed since it was written\)/);
  });

  it('refuses a file with one byte changed', async () => {
    const bytes = Buffer.from(fs.readFileSync(plain));
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0x40;
    const changed = path.join(dir, 'changed.hbk');
    fs.writeFileSync(changed, bytes);
    await refused([changed], /changed\.hbk is damaged/);
  });

  it('refuses an encrypted file changed with its checksum made right again', async () => {
    const bytes = Buffer.from(fs.readFileSync(sealed));
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0x01;
    const changed = path.join(dir, 'forged.hbk');
    fs.writeFileSync(changed, bytes);
    rewrite(changed, changed, () => {}, true);
    await refused([changed, '--passphrase-file', pass], /forged\.hbk failed authentication/);
  });

  it('refuses a wrong passphrase, and an encrypted file without one', async () => {
    await refused([sealed, '--passphrase-file', passphraseFile(dir, 'not it')], /Wrong passphrase for .*sealed\.hbk/);
    await refused([sealed], /sealed\.hbk is encrypted: pass --passphrase-file/);
  });

  it("refuses an APP_SECRET other than the backup's, naming what to set", async () => {
    const result = await refused([plain], /APP_SECRET is set to another value than the backup was made with/, {
      APP_SECRET: 'another-instance-secret-0123456789abcdef',
    });
    expect(result.stderr).toMatch(/Unset APP_SECRET .* or set it to the backup's value/);
  });

  it('refuses a backup of the other database, of a newer Herald, and a file that is no backup', async () => {
    const otherKind = rewrite(plain, path.join(dir, 'other-kind.hbk'), (header) => {
      header.kind = header.kind === 'pglite' ? 'postgres' : 'pglite';
    });
    await refused([otherKind], testDatabaseKind === 'pglite' ? /set DATABASE_URL/ : /DATABASE_URL is set: unset it/);
    const newer = rewrite(plain, path.join(dir, 'newer.hbk'), (header) => {
      header.schema = { migrations: 999, last: 9_999_999_999_999 };
      header.heraldVersion = '99.0.0';
    });
    await refused([newer], /made by a newer Herald \(99\.0\.0\): its database has 999 schema migrations/);
    const junk = path.join(dir, 'junk.hbk');
    fs.writeFileSync(junk, 'hello\n');
    await refused([junk], /junk\.hbk is not a Herald backup\./);
  });

  it('answers a usage error with exit code 2', async () => {
    const [noFile, twoFiles] = await Promise.all([
      herald(['backup'], target.env),
      herald(['restore', plain, 'extra'], target.env),
    ]);
    for (const result of [noFile, twoFiles]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('backup <file> [--passphrase-file <file>]');
    }
  });

  it('still restores into the target every refusal left untouched', async () => {
    const result = await herald(['restore', sealed, '--passphrase-file', pass], target.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Restored /);
    expect(await tableCounts(target)).toEqual(await tableCounts(source));
    expect(fs.readFileSync(path.join(target.dataDir, 'app-secret'), 'utf8')).toBe(APP_SECRET + '\n');
    expect(fs.readFileSync(path.join(target.dataDir, 'admin-token'), 'utf8')).toBe(ADMIN_TOKEN + '\n');
    expect(fs.statSync(path.join(target.dataDir, 'app-secret')).mode & 0o777).toBe(0o600);
  });
});
