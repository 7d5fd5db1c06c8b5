import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createSecureContext as tlsContext } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeHttpClient, OutboundRequestError, type HostResolver } from './safe-http.ts';

interface Received {
  method: string;
  url: string;
  host: string | undefined;
  body: string;
}

let server: http.Server;
let port = 0;
const received: Received[] = [];
// Answers by path: /redirect → 302 elsewhere, /slow → never, /big → 1 MB, anything else → 200 "ok".
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, host: req.headers.host, body });
      if (req.url === '/redirect') return res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
      if (req.url === '/slow') return;
      if (req.url === '/big') return res.end(Buffer.alloc(1024 * 1024, 'x'));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function resolverOf(zone: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    const answer = zone[host];
    if (!answer) throw new Error('ENOTFOUND');
    return answer;
  };
  return Object.assign(resolve, { calls });
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRequestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRequestError);
  return error as OutboundRequestError;
}

describe('safe outbound HTTP', () => {
  it('refuses loopback, private, link-local and metadata targets without connecting', async () => {
    const client = createSafeHttpClient({ resolve: resolverOf({}), allowPrivate: false });
    const before = received.length;
    for (const host of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '[::1]',
      '2130706433',
      '0x7f.0.0.1',
      '[::ffff:127.0.0.1]',
      'localhost',
    ]) {
      const error = await refusal(client.request({ url: `http://${host}:${port}/hook` }));
      expect(error.kind).toBe('refused');
      expect(error.retryable).toBe(false);
    }
    expect(received.length).toBe(before);
  });

  it('refuses a host name that resolves to a private address, and one that has any private address', async () => {
    const resolve = resolverOf({ 'internal.test': ['10.1.2.3'], 'mixed.test': ['93.184.216.34', '127.0.0.1'] });
    const client = createSafeHttpClient({ resolve, allowPrivate: false });
    // The refusal names the URL's host only: what an internal name resolves to is not told.
    expect((await refusal(client.request({ url: 'http://internal.test/' }))).message).toBe(
      'internal.test resolves to a non-public address; WEBHOOK_ALLOW_PRIVATE=true allows it',
    );
    expect((await refusal(client.request({ url: 'http://mixed.test/' }))).message).toBe(
      'mixed.test resolves to a non-public address; WEBHOOK_ALLOW_PRIVATE=true allows it',
    );
  });

  it('refuses other schemes and credentials in the URL', async () => {
    const client = createSafeHttpClient({ resolve: resolverOf({}), allowPrivate: true });
    expect((await refusal(client.request({ url: 'ftp://example.com/' }))).kind).toBe('refused');
    expect((await refusal(client.request({ url: 'file:///etc/passwd' }))).kind).toBe('refused');
    expect((await refusal(client.request({ url: `http://user:pw@127.0.0.1:${port}/` }))).kind).toBe('refused');
  });

  it('with private targets allowed, connects to the address it resolved once, with the host name in Host', async () => {
    const resolve = resolverOf({ 'hooks.test': ['127.0.0.1'] });
    const client = createSafeHttpClient({ resolve, allowPrivate: true });
    const res = await client.request({
      url: `http://hooks.test:${port}/in?x=1`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res).toMatchObject({ status: 200, body: 'ok', address: '127.0.0.1' });
    expect(received.at(-1)).toEqual({ method: 'POST', url: '/in?x=1', host: `hooks.test:${port}`, body: '{"a":1}' });
    expect(resolve.calls).toEqual(['hooks.test']);
  });

  it('does not follow redirects', async () => {
    const client = createSafeHttpClient({ resolve: resolverOf({}), allowPrivate: true });
    const before = received.length;
    const res = await client.request({ url: `http://127.0.0.1:${port}/redirect`, method: 'GET' });
    expect(res.status).toBe(302);
    expect(received.slice(before).map((r) => r.url)).toEqual(['/redirect']);
  });

  it('gives up at its deadline and reads at most the body cap', async () => {
    const client = createSafeHttpClient({
      resolve: resolverOf({}),
      allowPrivate: true,
      timeoutMs: 300,
      maxResponseBytes: 1000,
    });
    const error = await refusal(client.request({ url: `http://127.0.0.1:${port}/slow`, method: 'GET' }));
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    const big = await client.request({ url: `http://127.0.0.1:${port}/big`, method: 'GET' });
    expect(big.body.length).toBe(1000);
  });

  it('reports a refused connection and an unknown host as retryable', async () => {
    const client = createSafeHttpClient({ resolve: resolverOf({}), allowPrivate: true });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const closedError = await refusal(client.request({ url: `http://127.0.0.1:${closedPort}/` }));
    expect(closedError).toMatchObject({ kind: 'network', message: 'the connection was refused (ECONNREFUSED)' });
    const unknown = await refusal(client.request({ url: 'http://nowhere.test/' }));
    expect(unknown).toMatchObject({ kind: 'dns', message: 'nowhere.test did not resolve' });
    const resolverSays = createSafeHttpClient({
      resolve: async () => {
        throw new Error('nxdomain');
      },
      allowPrivate: true,
    });
    expect((await refusal(resolverSays.request({ url: 'http://gone.test/' }))).message).toBe(
      'gone.test does not exist (NXDOMAIN)',
    );
  });

  it('sends the host name, not the address, as TLS server name, and verifies the certificate', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-tls-'));
    const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-subj',
        '/CN=secure.test',
        '-days',
        '1',
      ],
      { stdio: 'ignore' },
    );
    const context = tlsContext({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) });
    const names: string[] = [];
    const server = https.createServer(
      {
        SNICallback: (name, cb) => {
          names.push(name);
          cb(null, context);
        },
      },
      (_req, res) => res.end('ok'),
    );
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createSafeHttpClient({
        resolve: resolverOf({ 'secure.test': ['127.0.0.1'] }),
        allowPrivate: true,
      });
      const error = await refusal(
        client.request({ url: `https://secure.test:${(server.address() as AddressInfo).port}/` }),
      );
      // The self-signed certificate is not trusted (verification stays on), but the handshake named the host.
      expect(error).toMatchObject({
        kind: 'network',
        message: 'the TLS certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)',
      });
      expect(names).toEqual(['secure.test']);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
