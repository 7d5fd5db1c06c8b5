import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { JobQueue } from './queue/queue.ts';

/** Everything a request handler or job needs, built once at start and passed in (never global). */
export interface AppContext {
  config: Readonly<Config>;
  database: Database;
  db: Db;
  queue: JobQueue;
  logger: Logger;
  secrets: Secrets;
}

export interface Secrets {
  appSecret: string;
  adminToken: string;
}
