/**
 * A real, in-process authoritative DNS server for tests (built on dns2), so code under test talks to it
 * through `node:dns` exactly as it would talk to a production resolver.
 *
 *   const dns = await startDnsServer({
 *     'example.com': [
 *       { type: 'MX', exchange: 'mx.example.com', priority: 10, ttl: 300 },
 *       { type: 'A', address: '192.0.2.1' },
 *       { type: 'NS', ns: 'ns1.example.com' },
 *       { type: 'TXT', data: ['v=spf1 ', 'include:_spf.example.net ~all'] }, // one record, two strings
 *     ],
 *     'nullmx.example': [{ type: 'MX', exchange: '.', priority: 0 }],      // RFC 7505 null MX
 *     'www.example.com': [{ type: 'CNAME', target: 'example.com' }],
 *     '*.wild.example': [{ type: 'A', address: '192.0.2.9' }],            // wildcard owner
 *   }, { silent: ['blackhole.example'] });
 *   createDnsClient({ servers: [dns.address] });   // "127.0.0.1:<port>"
 *   dns.queryCount('example.com', 'MX');           // queries received for that name and type
 *   await dns.close();
 *
 * Answers, like an authoritative server with a recursive front:
 * - names are case-insensitive, a trailing dot is ignored; `ttl` defaults to `defaultTtl` (300 s);
 * - records of the asked type → NOERROR with them; a CNAME owner is followed (up to 8 hops) inside the zone
 *   for any other type, answering the chain plus the target's records;
 * - a name that exists (has records, or is an ancestor of a name that has) but lacks the type → NODATA;
 * - a `*.parent` owner matches any name below `parent` that is not in the zone itself;
 * - anything else → NXDOMAIN (rcode 3); names in `servfail` → SERVFAIL (rcode 2);
 * - names in `silent` (and every name below them) are never answered: use them to test timeouts.
 * UDP and TCP listen on the same random port of 127.0.0.1, so truncated UDP answers (node:dns sends no
 * EDNS, so anything over 512 bytes) are retried over TCP as with a real server.
 * The zone, `silent` and `servfail` can be changed while the server runs (`setRecords`, `silence`, …);
 * every query received, answered or not, is appended to `queries`.
 */
import net from 'node:net';
import { createServer, Packet } from 'dns2';
import type { DnsServer, Resource } from 'dns2';

export type ZoneRecord =
  | { type: 'A'; address: string; ttl?: number }
  | { type: 'AAAA'; address: string; ttl?: number }
  | { type: 'MX'; exchange: string; priority?: number; ttl?: number }
  | { type: 'NS'; ns: string; ttl?: number }
  | { type: 'TXT'; data: string | string[]; ttl?: number }
  | { type: 'CNAME'; target: string; ttl?: number };

export type ZoneRecordType = ZoneRecord['type'];
export type Zone = Record<string, ZoneRecord[]>;

export interface DnsServerOptions {
  /** Names (and everything below them) the server receives queries for but never answers. */
  silent?: string[];
  /** Names answered with SERVFAIL. */
  servfail?: string[];
  /** TTL in seconds of records that give none. Default 300. */
  defaultTtl?: number;
  /** The address to listen on (default 127.0.0.1; 0.0.0.0 lets containers on this machine ask it). */
  host?: string;
}

export interface ReceivedQuery {
  name: string;
  type: string;
}

export interface TestDnsServer {
  readonly host: string;
  readonly port: number;
  /** `host:port`, the form DNS_SERVERS and createDnsClient take. */
  readonly address: string;
  /** Every query received, in order. */
  readonly queries: ReceivedQuery[];
  /** Queries received, optionally only for one name and/or record type. */
  queryCount(name?: string, type?: ZoneRecordType | string): number;
  resetQueries(): void;
  /** Replaces the records of one name (an empty list removes it). */
  setRecords(name: string, records: ZoneRecord[]): void;
  silence(name: string): void;
  unsilence(name: string): void;
  close(): Promise<void>;
}

type Rcode = 0 | 2 | 3;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
const TYPE_CODES: Record<ZoneRecordType, number> = {
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
  MX: Packet.TYPE.MX,
  NS: Packet.TYPE.NS,
  TXT: Packet.TYPE.TXT,
  CNAME: Packet.TYPE.CNAME,
};
const TYPE_NAMES = new Map<number, string>(Object.entries(Packet.TYPE).map(([name, code]) => [code, name]));

const normalize = (name: string): string => name.toLowerCase().replace(/\.$/, '');

const isAtOrBelow = (name: string, parent: string): boolean => name === parent || name.endsWith(`.${parent}`);

// Why: one place that turns a zone entry into the wire resource dns2 encodes.
function toResource(owner: string, record: ZoneRecord, defaultTtl: number): Resource {
  const base = { name: owner, type: TYPE_CODES[record.type], class: Packet.CLASS.IN, ttl: record.ttl ?? defaultTtl };
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return { ...base, address: record.address } as Resource;
    case 'MX':
      return { ...base, exchange: record.exchange, priority: record.priority ?? 10 } as Resource;
    case 'NS':
      return { ...base, ns: record.ns } as Resource;
    case 'TXT':
      return { ...base, data: record.data } as Resource;
    case 'CNAME':
      return { ...base, domain: record.target } as Resource;
  }
}

class ZoneAnswerer {
  readonly zone = new Map<string, ZoneRecord[]>();

  constructor(
    zone: Zone,
    private readonly defaultTtl: number,
  ) {
    for (const [name, records] of Object.entries(zone)) this.set(name, records);
  }

  set(name: string, records: ZoneRecord[]): void {
    if (records.length === 0) this.zone.delete(normalize(name));
    else this.zone.set(normalize(name), records);
  }

  /** Records owned by `name`, exact entry first, else the closest `*.` wildcard above it. */
  private recordsOf(name: string): ZoneRecord[] | undefined {
    const exact = this.zone.get(name);
    if (exact) return exact;
    if (this.nameExists(name)) return undefined;
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) {
      const wildcard = this.zone.get(`*.${labels.slice(i).join('.')}`);
      if (wildcard) return wildcard;
    }
    return undefined;
  }

  private nameExists(name: string): boolean {
    if (this.zone.has(name)) return true;
    for (const owner of this.zone.keys()) if (owner.endsWith(`.${name}`)) return true;
    return false;
  }

  answer(qname: string, qtype: number): { rcode: Rcode; answers: Resource[] } {
    const answers: Resource[] = [];
    let name = qname;
    for (let hop = 0; hop < 8; hop++) {
      const records = this.recordsOf(name);
      if (!records) {
        const exists = hop > 0 || this.nameExists(name);
        return { rcode: exists ? RCODE.NOERROR : RCODE.NXDOMAIN, answers };
      }
      const matching = records.filter((r) => TYPE_CODES[r.type] === qtype);
      const cname = records.find((r) => r.type === 'CNAME');
      if (matching.length > 0 || !cname || qtype === Packet.TYPE.CNAME) {
        answers.push(...matching.map((r) => toResource(name, r, this.defaultTtl)));
        return { rcode: RCODE.NOERROR, answers };
      }
      answers.push(toResource(name, cname, this.defaultTtl));
      name = normalize(cname.target);
    }
    return { rcode: RCODE.SERVFAIL, answers: [] };
  }
}

/** A free port on 127.0.0.1 for TCP; UDP then binds the same number (retried if it is taken). */
async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function listenOnSamePort(server: DnsServer, host: string): Promise<number> {
  const port = await freePort(host);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ udp: { port, address: host }, tcp: { port, address: host } }).then(() => {
      server.off('error', reject);
      resolve();
    }, reject);
  });
  return port;
}

/** Starts a DNS server answering `zone` on 127.0.0.1 (UDP and TCP, random port); see the header comment. */
export async function startDnsServer(zone: Zone, options: DnsServerOptions = {}): Promise<TestDnsServer> {
  const host = options.host ?? '127.0.0.1';
  const answerer = new ZoneAnswerer(zone, options.defaultTtl ?? 300);
  const silent = new Set((options.silent ?? []).map(normalize));
  const servfail = new Set((options.servfail ?? []).map(normalize));
  const queries: ReceivedQuery[] = [];

  const handle = (request: Packet, send: (response: Packet) => Promise<Buffer>): void => {
    const question = request.questions[0];
    if (!question) return;
    const name = normalize(question.name);
    queries.push({ name, type: TYPE_NAMES.get(question.type) ?? String(question.type) });
    if ([...silent].some((s) => isAtOrBelow(name, s))) return;
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    response.header.ra = 1;
    if (servfail.has(name)) {
      response.header.rcode = RCODE.SERVFAIL;
    } else {
      const { rcode, answers } = answerer.answer(name, question.type);
      response.header.rcode = rcode;
      response.answers = answers;
    }
    send(response).catch(() => undefined); // the client may be gone; nothing to do
  };

  let server: DnsServer;
  let port: number;
  for (let attempt = 0; ; attempt++) {
    server = createServer({ udp: true, tcp: true, handle });
    try {
      port = await listenOnSamePort(server, host);
      break;
    } catch (error) {
      try {
        void server.close().catch(() => undefined);
      } catch {
        // a socket that never bound cannot be closed; it is garbage either way
      }
      if (attempt >= 5) throw error;
    }
  }
  const running = server;

  return {
    host,
    port,
    address: `${host}:${port}`,
    queries,
    queryCount: (name, type) =>
      queries.filter((q) => (name === undefined || q.name === normalize(name)) && (type ?? q.type) === q.type).length,
    resetQueries: () => {
      queries.length = 0;
    },
    setRecords: (name, records) => answerer.set(name, records),
    silence: (name) => void silent.add(normalize(name)),
    unsilence: (name) => void silent.delete(normalize(name)),
    close: () => running.close(),
  };
}

/** Publishes a domain's TXT records (as `POST /domains` lists them) in the zone, so its verification passes. */
export function publishDomainRecords(
  dns: Pick<TestDnsServer, 'setRecords'>,
  records: { type: string; name: string; value: string; values?: string[] }[],
): void {
  const byName = new Map<string, ZoneRecord[]>();
  for (const r of records) {
    if (r.type === 'TXT')
      byName.set(r.name, [...(byName.get(r.name) ?? []), { type: 'TXT', data: r.values ?? [r.value] }]);
    if (r.type === 'MX') {
      const [priority, exchange] = r.value.split(' ');
      byName.set(r.name, [
        ...(byName.get(r.name) ?? []),
        { type: 'MX', priority: Number(priority), exchange: exchange! },
      ]);
    }
  }
  for (const [name, zone] of byName) dns.setRecords(name, zone);
}
