/**
 * A real SMTP server whose behaviour a test switches while it runs (smtp-server on 127.0.0.1, AUTH required when
 * `auth` is given), for transport faults: it can accept, refuse connections (stops listening; the port stays its
 * own and it listens there again on `accept`), greet with 421, drop the connection in the middle of DATA (after
 * AUTH and the envelope were accepted), or answer every RCPT with a temporary reply.
 *
 *   const relay = await startScriptedSmtp({ auth: { user: 'u', pass: 'p' } });
 *   relay.config                       // { host, port, username, password } for POST /transports
 *   await relay.set('refuse');        // connections refused
 *   await relay.set('greet421');      // 421 at the greeting
 *   await relay.set('dropInData');    // the socket is destroyed when the message's bytes arrive
 *   await relay.set('deferRcpt', '450 4.7.28 Slow down');
 *   await relay.set('accept');
 *   relay.perRecipient.get('a@x.test') // complete messages stored per recipient (duplicates show)
 *   relay.connections                  // connections opened so far (probes count); connectionTimes: when
 */
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ScriptedMode = 'accept' | 'refuse' | 'greet421' | 'dropInData' | 'deferRcpt';

export interface ScriptedSmtp {
  port: number;
  config: { host: string; port: number; username?: string; password?: string };
  mode(): ScriptedMode;
  set(mode: ScriptedMode, reply?: string): Promise<void>;
  perRecipient: Map<string, number>;
  /** Messages stored (complete and accepted). */
  messages: { to: string[]; raw: Buffer }[];
  connections: number;
  /** performance.now() of each connection the relay took. */
  connectionTimes: number[];
  /** Resolves once `count` messages are stored (rejects after `timeoutMs`). */
  waitForMessages(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function smtpError(reply: string): Error {
  const code = Number(reply.slice(0, 3));
  return Object.assign(new Error(reply.slice(4)), { responseCode: code });
}

export async function startScriptedSmtp(
  options: { auth?: { user: string; pass: string } } = {},
): Promise<ScriptedSmtp> {
  let mode: ScriptedMode = 'accept';
  let deferReply = '450 4.7.28 Slow down';
  const perRecipient = new Map<string, number>();
  const messages: { to: string[]; raw: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let connections = 0;
  const connectionTimes: number[] = [];

  const server = new SMTPServer({
    secure: false,
    authOptional: !options.auth,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'scripted relay',
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++;
      connectionTimes.push(performance.now());
      if (mode === 'greet421') return callback(smtpError('421 4.3.2 Service not available, closing channel'));
      callback();
    },
    onAuth(auth, _session, callback) {
      if (options.auth && (auth.username !== options.auth.user || auth.password !== options.auth.pass)) {
        return callback(smtpError('535 5.7.8 Authentication credentials invalid'));
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(_address, _session, callback) {
      if (mode === 'deferRcpt') return callback(smtpError(deferReply));
      callback();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      let dropped = false;
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (mode === 'dropInData' && !dropped) {
          dropped = true;
          // The connection that carries this session ends before the message is complete: nothing is accepted.
          const live = (server as unknown as { connections: Set<{ session?: { id: string }; _socket: Socket }> })
            .connections;
          for (const connection of live) if (connection.session?.id === session.id) connection._socket.destroy();
        }
      });
      stream.on('error', () => done(new Error('stream error')));
      stream.on('end', () => {
        if (dropped) return;
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push({ to, raw: Buffer.concat(chunks) });
        for (const address of to) perRecipient.set(address, (perRecipient.get(address) ?? 0) + 1);
        for (const wake of waiters) wake();
        done(null, 'Ok: queued');
      });
    },
  });
  server.on('error', () => undefined);
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.server.listen(port, '127.0.0.1', () => {
        server.server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    config: {
      host: '127.0.0.1',
      port,
      ...(options.auth ? { username: options.auth.user, password: options.auth.pass } : {}),
    },
    mode: () => mode,
    async set(next, reply) {
      if (reply) deferReply = reply;
      const wasRefusing = mode === 'refuse';
      mode = next;
      // A new behaviour starts with new connections: the open ones (a client's pool) are cut.
      for (const socket of sockets) socket.destroy();
      if (next === 'refuse' && !wasRefusing) {
        await new Promise<void>((resolve) => {
          server.server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
      } else if (next !== 'refuse' && wasRefusing) {
        await listen(port);
      }
    },
    perRecipient,
    messages,
    get connections() {
      return connections;
    },
    connectionTimes,
    waitForMessages(count, timeoutMs = 20_000) {
      if (messages.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`scripted relay: ${messages.length} of ${count} messages after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
