import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { createTransport } from './mail/transports/index.ts';
import { createDnsClient } from './modules/verify/index.ts';

/** The outside-world clients a context holds (DNS, mail transport), built from configuration. */
export function createServices(config: Readonly<Config>): Pick<AppContext, 'dns' | 'dnsFresh' | 'transport'> {
  return {
    dns: createDnsClient({ servers: config.dnsServers, timeoutMs: 2000 }),
    dnsFresh: createDnsClient({ servers: config.dnsServers, timeoutMs: 3000, cacheSize: 0 }),
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
