import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../src/db/lock.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-lock-'));
  dirs.push(dir);
  return dir;
};

describe('embedded database lock', () => {
  afterEach(() => {
    while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
  });

  it('refuses a second process on the same DATA_DIR with a clear message', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(child.status).toBe(1);
      expect(child.stderr).toContain('in use by another Herald process');
      expect(child.stderr).toContain(String(process.pid));
    } finally {
      release();
    }
    expect(fs.existsSync(path.join(dir, 'herald.lock'))).toBe(false);
  });

  it('refuses a second open in the same process', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
  });

  it('takes over a lock left by a dead process (kill -9)', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(path.join(dir, 'herald.lock'), dead.stdout);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'herald.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
