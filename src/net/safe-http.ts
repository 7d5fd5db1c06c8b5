// The one outbound HTTP client for customer-given URLs (workflow WEBHOOK steps, webhooks out): the host is
// resolved once, every address is checked against the IP policy, and the connection goes to the checked
// address (a custom `lookup`), so a DNS answer that changes between check and connect cannot slip through.
// No redirect is followed, the whole exchange has a deadline, and the response body read is capped.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkAddress, parseIpLiteral } from './ip-policy.ts';

/** Resolves a host name to its IPv4 and IPv6 addresses (the app passes one built on DNS_SERVERS). */
export type HostResolver = (host: string) => Promise<string[]>;

export interface SafeHttpOptions {
  resolve: HostResolver;
  /** Lets loopback, private and link-local targets through (self-hosted setups, tests): WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Deadline of one exchange, connect to last byte read. Default 10 s. */
  timeoutMs?: number;
  /** Bytes of the response body kept; the rest is not read. Default 64 KiB. */
  maxResponseBytes?: number;
}

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as text, cut at maxResponseBytes. */
  body: string;
  /** The address the request went to. */
  address: string;
}

/**
 * Why a request did not get a response: `refused` (the URL or its addresses are not allowed), `dns` (the
 * host did not resolve), `timeout`, `network` (connection refused, reset, TLS). Only `refused` is final.
 */
export class OutboundRequestError extends Error {
  override name = 'OutboundRequestError';
  constructor(
    readonly kind: 'refused' | 'dns' | 'timeout' | 'network',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get retryable(): boolean {
    return this.kind !== 'refused';
  }
}

export interface SafeHttpClient {
  request(request: OutboundRequest): Promise<OutboundResponse>;
}

const LOCALHOST = /(^|\.)localhost$/i;

/** The URL as the client will use it, or the reason it is refused before any lookup. */
export function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRequestError('refused', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRequestError('refused', 'only http and https URLs are allowed');
  if (url.username || url.password)
    throw new OutboundRequestError('refused', 'credentials in the URL are not allowed; send them in a header');
  return url;
}

/** DNS outcomes a resolver reports (the app's resolver fails with these words), told as they are. */
const DNS_OUTCOMES: Record<string, string> = {
  nxdomain: 'does not exist (NXDOMAIN)',
  nodata: 'has no A or AAAA record',
  'no address': 'has no A or AAAA record',
  timeout: 'did not resolve in time',
  error: 'did not resolve (DNS error)',
};

/**
 * The addresses a request to `host` may connect to, all checked; throws `refused` when any address is not
 * public (unless private targets are allowed): a host that answers with one private address is refused.
 * Messages name only the URL's own host: they reach delivery logs and API answers, and what a name resolves
 * to (or why a resolver failed) would map the network Herald runs in.
 */
export async function resolveTarget(
  host: string,
  options: Pick<SafeHttpOptions, 'resolve' | 'allowPrivate'>,
): Promise<{ address: string; family: 4 | 6 }[]> {
  const literal = parseIpLiteral(host);
  let addresses: string[];
  if (literal) addresses = [literal.toString()];
  else if (LOCALHOST.test(host))
    addresses = ['127.0.0.1', '::1']; // RFC 6761: always loopback, never asked
  else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      const outcome = error instanceof Error ? DNS_OUTCOMES[error.message] : undefined;
      throw new OutboundRequestError('dns', `${host} ${outcome ?? 'did not resolve'}`, { cause: error });
    }
    if (addresses.length === 0) throw new OutboundRequestError('dns', `${host} has no A or AAAA record`);
  }
  const verdicts = addresses.map(checkAddress);
  for (const verdict of verdicts) {
    if (verdict.allowed || options.allowPrivate) continue;
    // The URL's own literal (or localhost) may be told why; a name's answers are not repeated.
    const what =
      literal || LOCALHOST.test(host) ? `${host} is ${verdict.reason}` : `${host} resolves to a non-public address`;
    throw new OutboundRequestError('refused', `${what}; WEBHOOK_ALLOW_PRIVATE=true allows it`);
  }
  return verdicts.filter((v) => parseIpLiteral(v.address)).map((v) => ({ address: v.address, family: v.family }));
}

/** What went wrong on the wire, by Node's error code: its messages carry the address connected to, or TLS names. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection closed while the request was sent',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not name the host',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the TLS certificate is not trusted',
};

/** A network failure told by its code only (the code is a constant name; the original stays as `cause`). */
function networkError(error: Error): OutboundRequestError {
  const code = (error as { code?: unknown }).code;
  const known = typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : null;
  const what = known?.startsWith('HPE_')
    ? 'the response is not valid HTTP'
    : ((known && NETWORK_ERRORS[known]) ?? 'the request failed');
  return new OutboundRequestError('network', known ? `${what} (${known})` : what, { cause: error });
}

/** A lookup that answers every name with the one address that was checked. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

function send(
  url: URL,
  target: { address: string; family: 4 | 6 },
  request: OutboundRequest,
  timeoutMs: number,
  maxBytes: number,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const module = url.protocol === 'https:' ? https : http;
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const req = module.request({
      protocol: url.protocol,
      host: hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: request.method ?? 'POST',
      headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      lookup: pinnedLookup(target.address, target.family),
      // Certificates are checked against the host name of the URL, and SNI carries it (not the address).
      ...(url.protocol === 'https:' && !parseIpLiteral(hostname) ? { servername: hostname } : {}),
      agent: false,
    });
    const timer = setTimeout(
      () => req.destroy(new OutboundRequestError('timeout', `no complete response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error instanceof OutboundRequestError ? error : networkError(error));
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          address: target.address,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= maxBytes) return;
        chunks.push(chunk.subarray(0, maxBytes - size));
        size += chunk.length;
        if (size >= maxBytes) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', (error) => {
        if (!done) fail(error);
      });
    });
    req.end(body);
  });
}

/** Builds the client; `request` answers with any status (3xx included: redirects are never followed). */
export function createSafeHttpClient(options: SafeHttpOptions): SafeHttpClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 65_536;
  return {
    async request(request) {
      const url = parseTargetUrl(request.url);
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      const [target] = await resolveTarget(host, options);
      if (!target) throw new OutboundRequestError('dns', `${host} has no usable address`);
      return send(url, target, request, timeoutMs, maxBytes);
    },
  };
}
