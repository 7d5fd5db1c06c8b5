import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { JobQueue } from './queue/queue.ts';
import type { AnyJob } from './queue/registry.ts';
import type { Transport } from './mail/transport.ts';
import type { SafeHttpClient } from './net/safe-http.ts';
import type { DnsClient } from './modules/verify/index.ts';
import { allJobs, allPollers } from './jobs.ts';
import { createServices } from './services.ts';

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
  /** HTTP to customer URLs (workflow WEBHOOK steps, webhooks out): SSRF-checked, pinned to the checked address. */
  outbound: SafeHttpClient;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Registry;
}

export interface Secrets {
  appSecret: string;
  adminToken: string;
}

export interface CreateContextOptions {
  config: Readonly<Config>;
  database: Database;
  logger: Logger;
  secrets: Secrets;
  /** Extra jobs next to every module's (test probes). */
  jobs?: AnyJob[];
}

/**
 * The one way to build a context, for the runtime, the tests and the benches alike: starts the job
 * queue (with every module's jobs) and the outside-world clients. Workers are started separately.
 */
export async function createContext(opts: CreateContextOptions): Promise<AppContext> {
  const { config, database, logger, secrets } = opts;
  const queue = await JobQueue.start(database, [...allJobs, ...(opts.jobs ?? [])], logger, allPollers);
  return { config, database, db: database.db, queue, logger, secrets, metrics: new Registry(), ...createServices(config) };
}
