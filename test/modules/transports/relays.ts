/**
 * SMTP relays that fail the way real ones do, for POST /transports/{id}/test: one that checks AUTH and, refusing it,
 * quotes back what it received (the password as is and the AUTH PLAIN line in base64); one that greets with 421 and
 * hangs up; one that accepts connections and never speaks.
 */
import net from 'node:net';
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
export async function startRawServer(greeting: string | null): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (greeting !== null) socket.end(`${greeting}\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
