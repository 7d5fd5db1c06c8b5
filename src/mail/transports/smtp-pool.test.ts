// The SMTP transport's pool against a real smtp-server that counts its connections: reuse, recycling, the bound on
// connections, a refused message keeping its connection, and connections the server ends (idle, or 421).
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpPool } from './smtp-pool.ts';

interface TestServer {
  port: number;
  connections: number;
  received: string[];
  /** Most messages between their first byte and the server's reply at one time. */
  maxInData: number;
  /** Answers the next MAIL FROM on a connection that already carried a message with 421 (once). */
  closeNextReused(): void;
  events: NodeJS.EventEmitter;
  server: SMTPServer;
}

const servers: SMTPServer[] = [];
const pools: SmtpPool[] = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function startServer(options: { socketTimeout?: number; refuse?: string } = {}): Promise<TestServer> {
  let inData = 0;
  let closeReused = false;
  const carried = new Set<string>();
  const state = {
    connections: 0,
    received: [] as string[],
    maxInData: 0,
    closeNextReused: () => {
      closeReused = true;
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    ...(options.socketTimeout ? { socketTimeout: options.socketTimeout } : {}),
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onClose() {
      server.emit('closed-connection');
    },
    onMailFrom(_address, session, callback) {
      if (closeReused && carried.has(session.id)) {
        closeReused = false;
        return callback(Object.assign(new Error('4.3.2 Service shutting down'), { responseCode: 421 }));
      }
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (address.address === options.refuse)
        return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      inData++;
      state.maxInData = Math.max(state.maxInData, inData);
      stream.resume();
      stream.on('end', () => {
        // A moment in DATA, so concurrent sends overlap here.
        setImmediate(() => {
          inData--;
          carried.add(session.id);
          state.received.push(session.envelope.rcptTo[0]!.address);
          callback();
        });
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  servers.push(server);
  return Object.assign(state, { port: (server.server.address() as AddressInfo).port, events: server, server });
}

function poolFor(port: number, limits: { maxConnections?: number; maxMessages?: number } = {}): SmtpPool {
  const pool = new SmtpPool({
    connection: { host: '127.0.0.1', port, ignoreTLS: true, logger: false, connectionTimeout: 2000 },
    maxConnections: limits.maxConnections ?? 5,
    maxMessages: limits.maxMessages ?? 100,
  });
  pools.push(pool);
  return pool;
}

const raw = (n: number) =>
  Buffer.from(`From: a@example.com\r\nTo: r${n}@example.org\r\nSubject: ${n}\r\n\r\nHello ${n}\r\n`);
const send = (pool: SmtpPool, n: number) => pool.send({ from: 'a@example.com', to: [`r${n}@example.org`] }, raw(n));

describe('SMTP pool', () => {
  it('reuses one connection for messages sent one after another', async () => {
    const server = await startServer();
    const pool = poolFor(server.port);
    for (let n = 0; n < 5; n++) await send(pool, n);
    expect(server.received).toEqual([
      'r0@example.org',
      'r1@example.org',
      'r2@example.org',
      'r3@example.org',
      'r4@example.org',
    ]);
    expect(server.connections).toBe(1);
  });

  it('opens at most maxConnections connections, with that many messages in flight', async () => {
    const server = await startServer();
    const pool = poolFor(server.port, { maxConnections: 3 });
    await Promise.all(Array.from({ length: 30 }, (_, n) => send(pool, n)));
    expect(server.received).toHaveLength(30);
    expect(new Set(server.received).size).toBe(30);
    expect(server.connections).toBe(3);
    expect(server.maxInData).toBe(3);
  });

  it('closes a connection after maxMessages and opens a new one', async () => {
    const server = await startServer();
    const pool = poolFor(server.port, { maxConnections: 1, maxMessages: 2 });
    for (let n = 0; n < 5; n++) await send(pool, n);
    expect(server.received).toHaveLength(5);
    expect(server.connections).toBe(3);
  });

  it('keeps the connection when the server refuses a recipient, and reports the refusal', async () => {
    const server = await startServer({ refuse: 'r1@example.org' });
    const pool = poolFor(server.port, { maxConnections: 1 });
    await send(pool, 0);
    const error = await send(pool, 1).then(
      () => null,
      (e: unknown) => e as { code?: string; responseCode?: number },
    );
    expect(error).toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
    await send(pool, 2);
    expect(server.received).toEqual(['r0@example.org', 'r2@example.org']);
    expect(server.connections).toBe(1);
  });

  it('does not use a connection the server closed while it was idle', async () => {
    const server = await startServer({ socketTimeout: 300 });
    const pool = poolFor(server.port);
    await send(pool, 0);
    await once(server.events, 'closed-connection');
    await send(pool, 1);
    expect(server.received).toEqual(['r0@example.org', 'r1@example.org']);
    expect(server.connections).toBe(2);
  });

  it('sends once more on a new connection when a reused one answers 421 before the message', async () => {
    const server = await startServer();
    const pool = poolFor(server.port, { maxConnections: 1 });
    await send(pool, 0);
    server.closeNextReused();
    await send(pool, 1);
    expect(server.received).toEqual(['r0@example.org', 'r1@example.org']);
    expect(server.connections).toBe(2);
  });

  it('fails a message when a new connection cannot be made, and refuses sends after close', async () => {
    const server = await startServer();
    const { port } = server;
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
    servers.splice(servers.indexOf(server.server), 1);
    const pool = poolFor(port);
    await expect(send(pool, 0)).rejects.toThrow(/ECONNREFUSED/);
    pool.close();
    await expect(send(pool, 1)).rejects.toThrow(/closed/);
  });

  it('does not hang when the server hangs up instead of answering RSET after a refusal', async () => {
    // A scripted server (smtp-server always answers RSET): refuses r0, drops the connection on RSET, accepts the rest.
    let connections = 0;
    const received: string[] = [];
    const server = net.createServer((socket) => {
      connections++;
      let inData = false;
      let rcpt = '';
      let buffer = '';
      socket.write('220 scripted\r\n');
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (inData) {
            if (line === '.') {
              inData = false;
              received.push(rcpt);
              socket.write('250 queued\r\n');
            }
          } else if (/^RCPT/.test(line)) {
            rcpt = /<(.*)>/.exec(line)![1]!;
            socket.write(rcpt === 'r0@example.org' ? '550 5.1.1 No such user\r\n' : '250 ok\r\n');
          } else if (line === 'DATA') {
            inData = true;
            socket.write('354 go ahead\r\n');
          } else if (line === 'RSET') {
            socket.destroy();
          } else if (line === 'QUIT') {
            socket.end('221 bye\r\n');
          } else {
            socket.write('250 ok\r\n');
          }
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const pool = poolFor((server.address() as AddressInfo).port, { maxConnections: 1 });
    try {
      await expect(send(pool, 0)).rejects.toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
      await send(pool, 1);
      expect(received).toEqual(['r1@example.org']);
      expect(connections).toBe(2);
    } finally {
      pool.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
