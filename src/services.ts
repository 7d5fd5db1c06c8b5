import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { createTransport } from './mail/transports/index.ts';
import { createSafeHttpClient, type HostResolver } from './net/safe-http.ts';
import { createDnsClient, type DnsClient } from './modules/verify/index.ts';

/** A host's A and AAAA addresses through DNS_SERVERS; fails only when neither lookup found any. */
function hostResolver(dns: DnsClient): HostResolver {
  return async (host) => {
    const [a, aaaa] = await Promise.all([dns.lookup('A', host), dns.lookup('AAAA', host)]);
    const addresses = [a, aaaa].flatMap((answer) => (answer.status === 'found' ? answer.records : []));
    if (addresses.length === 0) throw new Error(a.status === 'found' ? 'no address' : a.status);
    return addresses;
  };
}

/** The outside-world clients a context holds (DNS, mail transport, outbound HTTP), built from configuration. */
export function createServices(config: Readonly<Config>): Pick<AppContext, 'dns' | 'dnsFresh' | 'transport' | 'outbound'> {
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
