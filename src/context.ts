import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { JobQueue } from './queue/queue.ts';
import type { Transport } from './mail/transport.ts';
import type { DnsClient } from './modules/verify/verify.dns.ts';

/** Everything a request handler or job needs, built once at start and passed in (never global). */
export interface AppContext {
  config: Readonly<Config>;
  database: Database;
  db: Db;
  queue: JobQueue;
  logger: Logger;
  secrets: Secrets;
  /** Cached resolver through DNS_SERVERS (address verification). */
  dns: DnsClient;
  /** Uncached resolver through DNS_SERVERS (domain checks must see a record the moment it is published). */
  dnsFresh: DnsClient;
  /** Where finished messages go: outbox, SMTP or SES. */
  transport: Transport;
}

export interface Secrets {
  appSecret: string;
  adminToken: string;
}
