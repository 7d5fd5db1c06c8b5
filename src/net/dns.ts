import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { TtlCache } from './dns-cache.ts';

export type DnsRecordType = 'A' | 'AAAA' | 'MX' | 'NS' | 'TXT' | 'CNAME';

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** What one record of each type looks like; a TXT record is its list of character-strings. */
export interface DnsRecordMap {
  A: string;
  AAAA: string;
  MX: MxRecord;
  NS: string;
  TXT: string[];
  CNAME: string;
}

/** The outcome of one lookup; failures are values, never exceptions. Answers are shared: read-only. */
export type DnsAnswer<T> =
  | { status: 'found'; records: readonly T[] }
  | { status: 'nxdomain' }
  | { status: 'nodata' }
  | { status: 'timeout' }
  | { status: 'error'; code: string };

export interface DnsClientOptions {
  /** `host` or `host:port` (IPv6 as `[addr]:port`); empty = the system resolvers. */
  servers: readonly string[];
  /** Hard budget of one lookup, retries included. Default 2000 ms. */
  timeoutMs?: number;
  /** Attempts per server within that budget. Default 2. */
  tries?: number;
  /** Most answers kept; 0 disables caching. Default 10 000. */
  cacheSize?: number;
  /** How long NXDOMAIN and NODATA are remembered. Default 60 s. */
  negativeTtlSeconds?: number;
  /** TTL for MX, NS, TXT and CNAME answers, whose TTL node:dns does not expose. Default 300 s. */
  defaultTtlSeconds?: number;
  /** Upper bound on any cached TTL. Default 3600 s. */
  maxTtlSeconds?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface DnsClientStats {
  /** Lookups sent to a DNS server. */
  queries: number;
  /** Lookups answered from the cache. */
  cacheHits: number;
  /** Lookups that joined an identical one already in flight. */
  joinedInFlight: number;
  cacheSize: number;
}

type AnyAnswer = DnsAnswer<DnsRecordMap[DnsRecordType]>;
const TIMED_OUT = Symbol('timed out');

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

function normalizeName(name: string): string {
  const trimmed = name.trim().replace(/\.$/, '').toLowerCase();
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(trimmed) ? domainToASCII(trimmed) || trimmed : trimmed;
}

/** Cached, deduplicated, time-bounded DNS lookups through configured servers (node:dns Resolver). */
export class DnsClient {
  private readonly resolver: Resolver;
  private readonly cache: TtlCache<AnyAnswer>;
  private readonly inFlight = new Map<string, Promise<AnyAnswer>>();
  private readonly timeoutMs: number;
  private readonly negativeTtlMs: number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private counters = { queries: 0, cacheHits: 0, joinedInFlight: 0 };

  constructor(options: DnsClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    const tries = Math.max(1, options.tries ?? 2);
    this.negativeTtlMs = (options.negativeTtlSeconds ?? 60) * 1000;
    this.defaultTtlMs = (options.defaultTtlSeconds ?? 300) * 1000;
    this.maxTtlMs = (options.maxTtlSeconds ?? 3600) * 1000;
    this.cache = new TtlCache(options.cacheSize ?? 10_000, options.now);
    // c-ares doubles the wait on each retry; the hard deadline below caps the total at timeoutMs anyway.
    this.resolver = new Resolver({ timeout: Math.max(50, Math.round(this.timeoutMs / tries)), tries });
    const servers = options.servers.map((s) => s.trim()).filter((s) => s !== '');
    if (servers.length > 0) {
      try {
        this.resolver.setServers(servers);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new Error(`Invalid DNS server list ${JSON.stringify(servers)} (want IP or IP:port): ${detail}`, {
          cause: error,
        });
      }
    }
  }

  /** Why: the one entry point, so every caller gets the cache, in-flight sharing and the time bound. */
  lookup<K extends DnsRecordType>(type: K, name: string): Promise<DnsAnswer<DnsRecordMap[K]>> {
    const fqdn = normalizeName(name);
    const key = `${type} ${fqdn}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.counters.cacheHits++;
      return Promise.resolve(cached as DnsAnswer<DnsRecordMap[K]>);
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      this.counters.joinedInFlight++;
      return pending as Promise<DnsAnswer<DnsRecordMap[K]>>;
    }
    const started = this.resolveUncached(type, fqdn).then((outcome) => {
      this.inFlight.delete(key);
      if (outcome.ttlMs > 0) this.cache.set(key, outcome.answer, Math.min(outcome.ttlMs, this.maxTtlMs));
      return outcome.answer;
    });
    this.inFlight.set(key, started);
    return started as Promise<DnsAnswer<DnsRecordMap[K]>>;
  }

  /** Why: lets benchmarks and tests see whether an answer came from the wire or the cache. */
  stats(): DnsClientStats {
    return { ...this.counters, cacheSize: this.cache.size };
  }

  clearCache(): void {
    this.cache.clear();
  }

  private async resolveUncached(type: DnsRecordType, name: string): Promise<{ answer: AnyAnswer; ttlMs: number }> {
    this.counters.queries++;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.timeoutMs);
    });
    try {
      const result = await Promise.race([this.query(type, name), deadline]);
      if (result === TIMED_OUT) return { answer: { status: 'timeout' }, ttlMs: 0 };
      if (result.records.length === 0) return { answer: { status: 'nodata' }, ttlMs: this.negativeTtlMs };
      return { answer: { status: 'found', records: Object.freeze(result.records) }, ttlMs: result.ttlMs };
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOTFOUND') return { answer: { status: 'nxdomain' }, ttlMs: this.negativeTtlMs };
      if (code === 'ENODATA') return { answer: { status: 'nodata' }, ttlMs: this.negativeTtlMs };
      if (code === 'ETIMEOUT') return { answer: { status: 'timeout' }, ttlMs: 0 };
      return { answer: { status: 'error', code }, ttlMs: 0 };
    } finally {
      clearTimeout(timer);
    }
  }

  private async query(
    type: DnsRecordType,
    name: string,
  ): Promise<{ records: DnsRecordMap[DnsRecordType][]; ttlMs: number }> {
    const withDefaultTtl = <T>(records: T[]) => ({ records, ttlMs: this.defaultTtlMs });
    switch (type) {
      case 'A':
      case 'AAAA': {
        const found =
          type === 'A'
            ? await this.resolver.resolve4(name, { ttl: true })
            : await this.resolver.resolve6(name, { ttl: true });
        const ttlSeconds = Math.min(...found.map((r) => r.ttl));
        return { records: found.map((r) => r.address), ttlMs: found.length > 0 ? ttlSeconds * 1000 : 0 };
      }
      case 'MX':
        return withDefaultTtl(await this.resolver.resolveMx(name));
      case 'NS':
        return withDefaultTtl(await this.resolver.resolveNs(name));
      case 'TXT':
        return withDefaultTtl(await this.resolver.resolveTxt(name));
      case 'CNAME':
        return withDefaultTtl(await this.resolver.resolveCname(name));
    }
  }
}

/** Why: the config module hands over DNS_SERVERS as a string list; this is the only way to build a client. */
export function createDnsClient(options: DnsClientOptions): DnsClient {
  return new DnsClient(options);
}
