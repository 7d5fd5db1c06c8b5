/**
 * Herald's image built and run with podman, for the container tests (`npm run test:ops`).
 *
 *   if (!podman.available) …                  // no podman here: the tests say so and skip
 *   await podman.buildImage();               // localhost/herald:ci from the Dockerfile
 *   await podman.run(['run', '-d', …]);      // any podman command, with the settings that work in sandboxes
 *
 * No image registry is reachable from the machines these tests run on: the Dockerfile's base image,
 * node:20-bookworm-slim, is made locally from Debian packages and this machine's Node by the script named in
 * HERALD_CONTAINER_BASE (default: ../shared/tools/container-base.sh beside the checkout) when it is missing.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const IMAGE = 'localhost/herald:ci';
const BASE_IMAGE = 'docker.io/library/node:20-bookworm-slim';

// crun fails in these sandboxes (cgroups) and runc works; default ulimits cannot be raised here.
const confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-podman-'));
const CONTAINERS_CONF = path.join(confDir, 'containers.conf');
fs.writeFileSync(CONTAINERS_CONF, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
export const podmanEnv = { ...process.env, CONTAINERS_CONF };

const probe = spawnSync('podman', ['--version'], { encoding: 'utf8' });
/** Why the container tests cannot run here, or null. */
export const unavailable: string | null =
  probe.status === 0 ? null : 'podman is not installed (Debian: apt-get install podman runc podman-compose)';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws for a non-zero exit (the caller decides). */
export function exec(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd ?? root,
        env: options.env ?? podmanEnv,
        timeout: options.timeoutMs ?? 600_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A podman command; throws with its output when it fails. */
export async function podman(args: string[], timeoutMs?: number): Promise<string> {
  const result = await exec('podman', args, { ...(timeoutMs ? { timeoutMs } : {}) });
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}

async function ensureBaseImage(): Promise<void> {
  if ((await exec('podman', ['image', 'exists', BASE_IMAGE])).code === 0) return;
  const script = process.env.HERALD_CONTAINER_BASE ?? path.resolve(root, '../shared/tools/container-base.sh');
  if (!fs.existsSync(script))
    throw new Error(`${BASE_IMAGE} is missing and no script makes it (HERALD_CONTAINER_BASE=${script})`);
  const made = await exec('bash', [script, BASE_IMAGE], { timeoutMs: 1_200_000 });
  if (made.code !== 0) throw new Error(`${script} failed:\n${made.stdout}\n${made.stderr}`);
}

/** Builds the image from the checkout's Dockerfile (layers cached between runs). */
export async function buildImage(): Promise<void> {
  await ensureBaseImage();
  await podman(['build', '--format', 'docker', '--network', 'host', '-t', IMAGE, root], 1_500_000);
}

/** Bytes of an image. */
export async function imageSize(image: string): Promise<number> {
  return Number((await podman(['image', 'inspect', image, '--format', '{{.Size}}'])).trim());
}

/** This machine's address as containers on a bridge network reach it (host.containers.internal). */
export function hostAddress(): string {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('no non-loopback IPv4 address: containers could not reach this machine');
}

/**
 * A TCP forwarder on all addresses to a local port, so containers reach a server that listens on loopback only
 * (this machine's PostgreSQL). Resolves with the port it listens on.
 */
export async function forwardTo(port: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
