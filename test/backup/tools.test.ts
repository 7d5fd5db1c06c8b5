// Which pg_dump and pg_restore `herald backup` and `herald restore` run on PostgreSQL: the server's own major version
// where Debian installs it, else the one on PATH; a missing or too old one is refused with the package to install.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupError } from '../../src/backup/format.ts';
import { findTool } from '../../src/backup/postgres.ts';

describe('the PostgreSQL client tools', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-tools-'));
  const onPath = path.join(dir, 'bin');
  const versioned = path.join(dir, 'lib');
  const path0 = process.env.PATH;
  afterAll(() => {
    process.env.PATH = path0;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A stand-in tool that prints `version` as pg_dump --version does. */
  function fakeTool(folder: string, version: string): void {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'pg_dump'), `#!/bin/sh\necho "pg_dump (PostgreSQL) ${version}"\n`, {
      mode: 0o755,
    });
  }

  it('refuses a missing pg_dump, naming the package', async () => {
    process.env.PATH = onPath;
    const error = await findTool('pg_dump', 17, 17, 'the server', versioned).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(/^pg_dump was not found: .*apt-get install postgresql-client-17/);
  });

  it('refuses a pg_dump older than the server', async () => {
    fakeTool(onPath, '15.4');
    process.env.PATH = onPath;
    const error = await findTool('pg_dump', 17, 17, 'the PostgreSQL server (17.2)', versioned).catch((e) => e);
    expect((error as Error).message).toMatch(
      /^pg_dump 15\.4 is older than the PostgreSQL server \(17\.2\): install .* major version 17 or newer/,
    );
  });

  it("takes the server's own version first, else the one on PATH", async () => {
    fakeTool(path.join(versioned, '17', 'bin'), '17.2');
    process.env.PATH = onPath;
    expect(await findTool('pg_dump', 17, 17, 'the server', versioned)).toMatchObject({
      path: path.join(versioned, '17', 'bin', 'pg_dump'),
      version: '17.2',
    });
    expect(await findTool('pg_dump', 15, 15, 'the server', versioned)).toMatchObject({ path: 'pg_dump', major: 15 });
  });
});
