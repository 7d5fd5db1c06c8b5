import path from 'node:path';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { AppContext, Erasure, Holds, References, Secrets } from './context.types.ts';
import type { Database } from './db/client.ts';
import { createTransport } from './mail/transports/index.ts';
import { createDnsClient, type DnsClient } from './net/dns.ts';
import { createSafeHttpClient, type HostResolver } from './net/safe-http.ts';
import type { AnyPoller } from './queue/poller.ts';
import { purgeExpiredJob } from './queue/jobs/maintenance.ts';
import { JobQueue } from './queue/queue.ts';
import type { AnyJob } from './queue/registry.ts';
import { ProcessResources } from './lib/process-resources.ts';

export interface CreateContextOptions {
  config: Readonly<Config>;
  database: Database;
  logger: Logger;
  secrets: Secrets;
  /** The jobs the queue knows (every module's, from src/modules.ts; tests add probes). */
  jobs: AnyJob[];
  /** The pollers each background process runs next to the jobs. */
  pollers: AnyPoller[];
  /** The modules' checks before a resource they name is deleted. */
  references: References;
  /** The modules' erasure of a deleted contact's address from their rows. */
  erasure: Erasure;
  /** The modules' release of work held for a cause that went away. */
  holds: Holds;
}

/** A host's A and AAAA addresses through DNS_SERVERS; fails only when neither lookup found any. */
function hostResolver(dns: DnsClient): HostResolver {
  return async (host) => {
    const [a, aaaa] = await Promise.all([dns.lookup('A', host), dns.lookup('AAAA', host)]);
    const addresses = [a, aaaa].flatMap((answer) => (answer.status === 'found' ? answer.records : []));
    if (addresses.length === 0) throw new Error(a.status === 'found' ? 'no address' : a.status);
    return addresses;
  };
}

/** The outside-world clients of a context (DNS, mail transport, outbound HTTP), built from configuration. */
function createClients(config: Readonly<Config>): Pick<AppContext, 'dns' | 'dnsFresh' | 'transport' | 'outbound'> {
  const dns = createDnsClient({ servers: config.dnsServers, timeoutMs: 2000 });
  return {
    dns,
    dnsFresh: createDnsClient({ servers: config.dnsServers, timeoutMs: 3000, cacheSize: 0 }),
    outbound: createSafeHttpClient({ resolve: hostResolver(dns), allowPrivate: config.webhookAllowPrivate }),
    transport: createTransport({
      kind: config.mailTransport,
      outboxDir: path.join(config.dataDir, 'outbox'),
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
      ...(config.ses.region
        ? {
            ses: {
              region: config.ses.region,
              ...(config.ses.endpoint ? { endpoint: config.ses.endpoint } : {}),
              ...(config.ses.accessKeyId && config.ses.secretAccessKey
                ? { accessKeyId: config.ses.accessKeyId, secretAccessKey: config.ses.secretAccessKey }
                : {}),
            },
          }
        : {}),
    }),
  };
}

/**
 * Builds a context from what it is given: starts the job queue with the given jobs and pollers (and the queue's
 * own maintenance) and the outside-world clients. It knows no module: src/runtime.ts's assemble() hands it theirs.
 */
export async function createContext(opts: CreateContextOptions): Promise<AppContext> {
  const { config, database, logger, secrets } = opts;
  const queue = await JobQueue.start(database, [purgeExpiredJob, ...opts.jobs], logger, opts.pollers);
  return {
    config,
    database,
    db: database.db,
    queue,
    logger,
    secrets,
    metrics: new Registry(),
    references: opts.references,
    erasure: opts.erasure,
    holds: opts.holds,
    resources: new ProcessResources(),
    ...createClients(config),
  };
}
