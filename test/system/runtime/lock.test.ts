import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../../src/db/lock.ts';

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

/** Starts lock-holder.ts in `mode` and resolves with its first line and the process. */
function holder(dir: string, mode: 'hold' | 'same-pid') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/system/runtime/lock-holder.ts', dir, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => resolve(out.trim()));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, line, exited };
}

describe('the lock dies with its holder', () => {
  afterEach(() => {
    while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
  });

  it('is refused while a live process holds it, and free at once after kill -9', async () => {
    const dir = tempDir();
    const a = holder(dir, 'hold');
    expect(await a.line).toBe('locked');
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another Herald process \\(pid ${a.child.pid}\\)`));
    a.child.kill('SIGKILL');
    await a.exited;
    // The stale file is still there, naming the dead process: it does not matter.
    expect(fs.readFileSync(path.join(dir, 'herald.lock'), 'utf8')).toBe(String(a.child.pid));
    const release = lockDataDir(dir);
    release();
  });

  it("is taken by a new process that got the dead holder's PID (PID 1 in a container)", async () => {
    const dir = tempDir();
    const a = holder(dir, 'hold');
    expect(await a.line).toBe('locked');
    a.child.kill('SIGKILL');
    await a.exited;
    const b = holder(dir, 'same-pid');
    expect(await b.line).toBe('locked');
    expect(await b.exited).toBe(0);
  });
});
