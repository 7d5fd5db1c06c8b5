/**
 * Herald as a real child process (`node --import tsx src/cli.ts <role>`), for tests that kill it.
 *
 *   const child = await spawnHerald('worker', { DATABASE_URL, SMTP_URL, ... });
 *   await child.kill('SIGKILL');   // resolves once the process is gone
 *   child.output()                 // what it printed, for failure messages
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HeraldChild {
  pid: number;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Resolves once the process is gone by itself (a fault point), or rejects after `limitMs`. */
  exited(limitMs: number): Promise<void>;
}

/** Children still running: killed when this process exits, so a stopped test or bench leaves none sending. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `herald <role>` and resolves once it says it is running (or rejects with its output). From the
 * TypeScript source by default (tests); `built: true` runs bin/herald.js (dist/cli.mjs under the V8 settings of its
 * first line) as `npm start` does (benches).
 */
export async function spawnHerald(
  role: 'serve' | 'worker' | 'api',
  env: Record<string, string>,
  readyMs = 60_000,
  options: {
    built?: boolean;
    /** Another installation's folder (a release's build, an installed package): its bin/herald.js. */
    home?: string;
  } = {},
): Promise<HeraldChild> {
  // BENCH_NODE_ARGS (built only): node's options instead of bin/herald.js's first line, to profile a bench
  // (`--max-semi-space-size=2 --max-old-space-size=1024 --cpu-prof --cpu-prof-dir=/tmp/prof`) or try a setting.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean);
  const home = options.home ?? root;
  const [command, args] =
    !options.built && !options.home
      ? [process.execPath, ['--import', 'tsx', 'src/cli.ts', role]]
      : nodeArgs
        ? [process.execPath, [...nodeArgs, path.join(home, 'bin/herald.js'), role]]
        : [path.join(home, 'bin/herald.js'), [role]];
  const child = spawn(command, args, {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let log = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`herald ${role} did not start:\n${log}`)), readyMs);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      // BENCH_CHILD_LOG: every child's output appended to this file too (`--trace-gc` in BENCH_NODE_ARGS, logs).
      if (process.env.BENCH_CHILD_LOG) fs.appendFileSync(process.env.BENCH_CHILD_LOG, chunk);
      if (/Herald \w+ (running|listening)/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`herald ${role} exited with ${code}:\n${log}`));
    });
  });
  return {
    pid: child.pid!,
    output: () => log,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    async exited(limitMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`herald ${role} did not exit within ${limitMs} ms:\n${log}`)),
          limitMs,
        );
      });
      try {
        await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
