// Wake-ups through LISTEN/NOTIFY on either database: a dedicated connection on PostgreSQL (reconnecting when
// it drops), PGlite's own listener in process. A missed notification only delays work: callers also poll.
import pg from 'pg';
import type { Database } from './client.ts';

export interface Listener {
  close(): Promise<void>;
}

/** Calls `onNotify` whenever a committed transaction NOTIFYs `channel` (a plain identifier). */
export async function listenTo(database: Database, channel: string, onNotify: () => void): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  if (database.kind === 'pglite') {
    const unlisten = await database.pglite!.listen(channel, () => onNotify());
    return { close: () => unlisten() };
  }
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: database.connectionString });
    next.on('notification', () => onNotify());
    next.on('error', () => schedule());
    next.on('end', () => schedule());
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      client = next;
      if (closed) await next.end().catch(() => {});
      else onNotify(); // anything committed while we were not listening
    } catch {
      await next.end().catch(() => {});
      schedule();
    }
  };
  const schedule = () => {
    if (closed || retry) return;
    client = null;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, 1000);
    retry.unref();
  };
  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
