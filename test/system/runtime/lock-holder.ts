// A child process for lock.test.ts: `node --import tsx test/system/runtime/lock-holder.ts <dir> hold|same-pid`.
//   hold      takes the lock, says "locked", and waits to be killed;
//   same-pid  plays a process that got the PID of a dead holder (PID 1 in a container): it writes its own
//             PID into the stale lock file first, then takes the lock, and says "locked" or the error.
import fs from 'node:fs';
import path from 'node:path';
import { lockDataDir } from '../../../src/db/lock.ts';

const [dir, mode] = process.argv.slice(2) as [string, string];
if (mode === 'same-pid') fs.writeFileSync(path.join(dir, 'herald.lock'), String(process.pid));
try {
  const release = lockDataDir(dir);
  process.stdout.write('locked\n');
  if (mode === 'same-pid') {
    release();
    process.exit(0);
  }
  setInterval(() => {}, 60_000);
} catch (error) {
  process.stdout.write(`refused: ${(error as Error).message}\n`);
  process.exit(3);
}
