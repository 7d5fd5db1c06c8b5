// A server on the embedded database says where it listens in DATA_DIR/server.json, so the `herald` command run
// beside it (which cannot open the locked database itself) can do its work through the server's admin API.
import fs from 'node:fs';
import path from 'node:path';

export interface ServerFile {
  pid: number;
  /** The admin API's base, reachable from this machine (http://127.0.0.1:3000). */
  url: string;
}

const fileOf = (dataDir: string) => path.join(dataDir, 'server.json');

/** Writes the server file; returns its removal (at close). */
export function announceServer(dataDir: string, server: ServerFile): () => void {
  const file = fileOf(dataDir);
  fs.writeFileSync(file, JSON.stringify(server) + '\n', { mode: 0o600 });
  return () => fs.rmSync(file, { force: true });
}

/** The server that holds DATA_DIR, as it announced itself; null when none did (or the file is unreadable). */
export function readServerFile(dataDir: string): ServerFile | null {
  try {
    const value = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as Partial<ServerFile>;
    return typeof value.url === 'string' && typeof value.pid === 'number' ? { pid: value.pid, url: value.url } : null;
  } catch {
    return null;
  }
}

/** The local URL of a listening address: a wildcard bind is reached through loopback. */
export function localUrl(host: string, port: number): string {
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${reach}:${port}`;
}
