import fs from 'node:fs';
import path from 'node:path';
import { tryLock, unlock } from 'fs-native-extensions';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

function holderOf(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Takes the embedded database's folder for this process. PGlite has no locking of its own and two
 * processes on one folder corrupt it, so a second process is refused. The lock is an OS lock on
 * `herald.lock` (an open-file-description lock on Linux, flock on macOS): the kernel drops it when its
 * holder exits in any way, kill -9 included, so no stale lock can outlive a process, whatever PID a
 * new process gets (PID 1 in a container). The PID in the file only names the holder in the message.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'herald.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    if (!tryLock(fd)) {
      fs.closeSync(fd);
      const holder = holderOf(file);
      if (holder === String(process.pid))
        throw new DataDirLockedError(`The embedded database in ${dir} is already open in this process.`);
      throw new DataDirLockedError(
        `The embedded database in ${dir} is in use by another Herald process (pid ${holder}). ` +
          'Only one process may open it; to run API and workers apart, use PostgreSQL (DATABASE_URL).',
      );
    }
    // A releasing holder unlinks the file: if it did so between our open and our lock, we hold a lock on
    // a file nobody else sees. Keep the lock only while the path still names the file we locked.
    const same = fs.fstatSync(fd).ino === fs.statSync(file, { throwIfNoEntry: false })?.ino;
    if (!same) {
      fs.closeSync(fd);
      continue;
    }
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, String(process.pid), 0);
    return () => {
      try {
        fs.unlinkSync(file);
      } catch {
        // already gone
      }
      unlock(fd);
      fs.closeSync(fd);
    };
  }
  throw new DataDirLockedError(`Could not lock ${dir}`);
}
