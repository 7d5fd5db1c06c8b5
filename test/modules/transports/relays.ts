/**
 * SMTP relays that fail the way real ones do, for POST /transports/{id}/test and the sending engine: one that checks
 * AUTH and, refusing it, quotes back what it received (the password as is and the AUTH PLAIN line in base64); one
 * that greets with 421 (or in plain text) and hangs up; one that accepts connections and never speaks; one whose TLS
 * (implicit, or STARTTLS) shows a self-signed certificate no client trusts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Relay {
  port: number;
  /** Logins tried: user name and whether it was accepted. */
  logins: { username: string; accepted: boolean }[];
  close(): Promise<void>;
}

/** A relay that takes exactly these credentials, and quotes the refused ones in its 535 reply. */
export async function startCheckingRelay(credentials: { username: string; password: string }): Promise<Relay> {
  const logins: Relay['logins'] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      const accepted = auth.username === credentials.username && auth.password === credentials.password;
      logins.push({ username: auth.username ?? '', accepted });
      if (accepted) return callback(null, { user: auth.username });
      const plain = Buffer.from(`\u0000${auth.username ?? ''}\u0000${auth.password ?? ''}`).toString('base64');
      const error = new Error(`5.7.8 Authentication failed for ${auth.username} with ${auth.password} (${plain})`);
      return callback(Object.assign(error, { responseCode: 535 }));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    logins,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that answers every connection with `greeting` (null: nothing at all) and then hangs up (or not). */
export async function startRawServer(
  greeting: string | null,
): Promise<{ port: number; readonly connections: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (greeting !== null) socket.end(`${greeting}\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A key and a self-signed certificate for 127.0.0.1 (made with the machine's openssl). */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-relay-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2'];
  execFileSync('openssl', [...args, ...subject], { stdio: 'ignore' });
  const pair = { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return pair;
}

/**
 * A relay that would take any message, behind TLS with a self-signed certificate: implicit TLS, or STARTTLS offered
 * after a plain greeting. A client that checks certificates never gets as far as a message.
 */
export async function startUntrustedTlsRelay(tls: 'implicit' | 'starttls'): Promise<{
  port: number;
  /** TCP connections taken (before any TLS). */
  readonly connections: number;
  messages: Buffer[];
  close(): Promise<void>;
}> {
  const messages: Buffer[] = [];
  let connections = 0;
  const server = new SMTPServer({
    ...selfSignedCertificate(),
    secure: tls === 'implicit',
    authOptional: true,
    logger: false,
    closeTimeout: 200,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  server.server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
