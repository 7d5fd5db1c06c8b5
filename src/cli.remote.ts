// The `herald` command beside a server on the embedded database: the database is the server's alone (the
// lock), so project and key commands go through that server's admin API, with the admin token of DATA_DIR.
import type { Config } from './config.ts';
import type { DataDirLockedError } from './db/lock.ts';
import { loadSecrets } from './secrets.ts';
import { readServerFile } from './server-file.ts';

export class RemoteCommandError extends Error {
  override name = 'RemoteCommandError';
}

interface RemoteCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

/** Runs a command through the server that holds DATA_DIR; its `data`, or a RemoteCommandError saying what to do. */
export async function runThroughServer(
  config: Readonly<Config>,
  command: { remote: RemoteCall | null },
  locked: DataDirLockedError,
): Promise<unknown> {
  const server = readServerFile(config.dataDir);
  if (!server) {
    throw new RemoteCommandError(
      `${locked.message}\nIt serves no API this command could use (a ` +
        `worker, or still starting): stop it and run the command again, ` +
        `or run it once the server is listening.`,
    );
  }
  if (!command.remote) {
    process.stdout.write(
      `The running Herald (pid ${server.pid}, ${server.url}) brought ` +
        `the database up to date when it started; nothing to do.\n`,
    );
    return undefined;
  }
  const { adminToken } = loadSecrets(config);
  const { method, path, body } = command.remote;
  let response: Response;
  try {
    response = await fetch(new URL(path, server.url), {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new RemoteCommandError(
      `The embedded database is held by Herald (pid ${server.pid}), but ` +
        `its API at ${server.url} did not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const answer = (await response.json().catch(() => null)) as {
    success?: boolean;
    data?: unknown;
    message?: string;
  } | null;
  if (!response.ok || !answer?.success) {
    throw new RemoteCommandError(`${server.url}${path}: ${response.status} ${answer?.message ?? response.statusText}`);
  }
  return answer.data;
}
