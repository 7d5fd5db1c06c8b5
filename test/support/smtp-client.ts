/**
 * SMTP clients for tests: a nodemailer transport as an app configures it for the relay, and a raw SMTP dialogue over
 * node:net for what no well-behaved client sends.
 *
 *   const s = await smtpDialogue(relay.port);       // reads the greeting
 *   await s.send('EHLO x')                          // the whole reply (multi-line joined with \n)
 *   await s.close()
 */
import net from 'node:net';
import nodemailer from 'nodemailer';

export function relayTransport(port: number, password: string, extra: Record<string, unknown> = {}) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    auth: { user: 'herald', pass: password },
    ...extra,
  });
}

export interface Dialogue {
  greeting: string;
  /** Sends a line (CRLF added) and returns the complete reply. */
  send(line: string): Promise<string>;
  /** Writes bytes as they are, and returns the next complete reply. */
  write(bytes: Buffer | string): Promise<string>;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** A connection that reads complete SMTP replies (`250-…` lines up to the `250 …` line). */
export function smtpDialogue(port: number, localAddress = '127.0.0.1'): Promise<Dialogue> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    let buffer = '';
    let waiting: ((reply: string) => void) | null = null;
    const take = () => {
      const lines = buffer.split('\r\n');
      const end = lines.findIndex((l) => /^\d{3} /.test(l) || /^\d{3}$/.test(l));
      if (end === -1 || !waiting) return;
      const reply = lines.slice(0, end + 1).join('\n');
      buffer = lines.slice(end + 1).join('\r\n');
      const w = waiting;
      waiting = null;
      w(reply);
    };
    const next = () =>
      new Promise<string>((r) => {
        waiting = r;
        take();
      });
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      take();
    });
    socket.once('error', reject);
    socket.once('close', () => waiting?.(`closed${buffer ? `: ${buffer}` : ''}`));
    next().then(
      (greeting) =>
        resolve({
          greeting,
          send: (line) => {
            const r = next();
            socket.write(`${line}\r\n`);
            return r;
          },
          write: (bytes) => {
            const r = next();
            socket.write(bytes);
            return r;
          },
          closed,
          close: () => {
            socket.destroy();
            return closed;
          },
        }),
      reject,
    );
  });
}

/** AUTH PLAIN's initial response for a password (user name `herald`). */
export const plain = (password: string) => Buffer.from(`\0herald\0${password}`).toString('base64');
