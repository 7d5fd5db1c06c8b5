// Doctor's checks of what Herald reaches and what reaches it: PUBLIC_URL from this machine and the SMTP listeners'
// greetings (the transports are checked in transports.ts).
import net from 'node:net';
import tls from 'node:tls';
import type { Config } from '../config.ts';
import { describeError, fail, ok, warn, type CheckRow } from './rows.ts';

/** GET PUBLIC_URL/healthz from this machine: Herald's own answer, through whatever proxy PUBLIC_URL names. */
export async function publicUrlRow(config: Readonly<Config>, limitMs: number): Promise<CheckRow> {
  const url = `${config.publicUrl}/healthz`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(limitMs) });
  } catch (error) {
    const why = error instanceof DOMException && error.name === 'TimeoutError' ? 'no answer' : describeError(error);
    if (!config.publicUrlConfigured) {
      return warn(
        'public url',
        `PUBLIC_URL is not set, and nothing answers at ${url} (${why}): is a server running?`,
        'Start Herald, and set PUBLIC_URL to the address people and mail clients reach it at.',
      );
    }
    return fail(
      'public url',
      `${url}: ${why}`,
      'Check that Herald runs and that PUBLIC_URL reaches it from here (DNS, proxy, TLS certificate, firewall).',
    );
  }
  const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
  if (!response.ok || body?.status !== 'ok') {
    return fail(
      'public url',
      `${url} answered ${response.status}, not Herald's health check`,
      'Point PUBLIC_URL, and the proxy in front of Herald, at Herald.',
    );
  }
  if (!config.publicUrlConfigured) {
    return warn(
      'public url',
      `PUBLIC_URL is not set: links in mail point to ${config.publicUrl}, which only this machine reaches`,
      'Set PUBLIC_URL to the address people and mail clients reach Herald at.',
    );
  }
  return ok('public url', `${url} answers`);
}

interface Listener {
  name: string;
  variable: string;
  host: string;
  port: number;
  tls: boolean;
}

/** The SMTP listeners this configuration starts in serve and worker processes (one per port). */
function listenersOf(config: Readonly<Config>): Listener[] {
  const list: Listener[] = [];
  const { inbound, feedbackSmtp, submissionSmtp } = config;
  if (inbound.port !== undefined) {
    const shared = feedbackSmtp.port === inbound.port;
    const name = shared ? 'inbound and feedback listener' : 'inbound listener';
    list.push({ name, variable: 'INBOUND_SMTP_PORT', host: inbound.host, port: inbound.port, tls: false });
  }
  if (feedbackSmtp.port !== undefined && feedbackSmtp.port !== inbound.port) {
    const { host, port } = feedbackSmtp;
    list.push({ name: 'feedback listener', variable: 'FEEDBACK_SMTP_PORT', host, port, tls: false });
  }
  if (submissionSmtp.port !== undefined) {
    const { host, port, secure } = submissionSmtp;
    list.push({ name: 'relay listener', variable: 'SUBMISSION_SMTP_PORT', host, port, tls: secure });
  }
  return list;
}

/** The first reply a listener sends (the greeting, all its lines), then QUIT. */
function readGreeting(listener: Listener, limitMs: number): Promise<string> {
  // A wildcard bind is reached through loopback.
  const host = listener.host === '0.0.0.0' ? '127.0.0.1' : listener.host === '::' ? '::1' : listener.host;
  return new Promise((resolve, reject) => {
    const socket = listener.tls
      ? tls.connect({ host, port: listener.port, rejectUnauthorized: false })
      : net.connect({ host, port: listener.port });
    socket.setTimeout(limitMs, () => socket.destroy(new Error(`no greeting within ${limitMs / 1000} s`)));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\r\n');
      const last = lines.slice(0, -1).find((line) => /^\d{3}(?: |$)/.test(line));
      if (!last) return;
      socket.end('QUIT\r\n');
      resolve(lines.slice(0, lines.indexOf(last) + 1).join(' | '));
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed without a greeting')));
  });
}

/** A row per configured SMTP listener: it accepts a connection and greets with 220. */
export async function listenerRows(config: Readonly<Config>, limitMs: number): Promise<CheckRow[]> {
  return Promise.all(
    listenersOf(config).map(async (listener) => {
      const where = `${listener.host}:${listener.port}${listener.tls ? ' (TLS)' : ''}`;
      try {
        const greeting = await readGreeting(listener, limitMs);
        if (/^220[ -]/.test(greeting)) return ok(listener.name, `${where} greets: ${greeting.slice(0, 80)}`);
        return fail(
          listener.name,
          `${where} answered: ${greeting.slice(0, 120)}`,
          'Look at the log of the Herald process that listens there, or at what else holds the port.',
        );
      } catch (error) {
        return fail(
          listener.name,
          `${where}: ${describeError(error)}`,
          `Start Herald (serve or worker) with ${listener.variable} set, and let connections to ${where} through.`,
        );
      }
    }),
  );
}
