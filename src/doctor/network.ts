// Doctor's checks of what Herald reaches and what reaches it: PUBLIC_URL from this machine, the mail transport (SMTP
// connection and AUTH, the SES account, the outbox folder) and the SMTP listeners' greetings.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { parseSmtpUrl } from '../mail/transports/smtp.ts';
import { describeError, fail, isRefused, ok, warn, type CheckRow } from './rows.ts';

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

/** The transport row: a connection that would carry the next message, made now. */
export function transportRow(config: Readonly<Config>, limitMs: number): Promise<CheckRow> {
  switch (config.mailTransport) {
    case 'smtp':
      return smtpRow(config.smtpUrl!, limitMs);
    case 'ses':
      return sesRow(config, limitMs);
    case 'outbox':
      return Promise.resolve(outboxRow(path.join(config.dataDir, 'outbox')));
  }
}

/** Why an SMTP relay refused doctor, as what to change. */
function smtpFix(error: unknown, where: string): string {
  const code = (error as { code?: string }).code;
  if (isRefused(error))
    return `Nothing listens at ${where}: correct the host and port in SMTP_URL, or start the relay.`;
  if (code === 'EAUTH')
    return 'The relay refused the user and password in SMTP_URL (smtp://user:password@host:port): correct them.';
  if (code === 'ETLS')
    return (
      "TLS failed: check the relay's certificate (?rejectUnauthorized=false accepts a self-signed one), " +
      'or use smtps:// for a port with implicit TLS (465).'
    );
  if (code === 'EDNS') return 'The host in SMTP_URL does not resolve: correct it.';
  if (code === 'ETIMEDOUT' || code === 'ECONNECTION')
    return `No answer from ${where}: check the host, the port and the firewall (many clouds block port 25; use 587).`;
  return 'Check SMTP_URL and the relay.';
}

/** Connects, EHLO, STARTTLS when offered, AUTH when SMTP_URL has credentials (nodemailer's verify), then QUIT. */
async function smtpRow(smtpUrl: string, limitMs: number): Promise<CheckRow> {
  let options: ReturnType<typeof parseSmtpUrl>;
  try {
    options = parseSmtpUrl(smtpUrl);
  } catch (error) {
    return fail('transport', describeError(error), 'Correct SMTP_URL (docs/configuration.md).');
  }
  const where = `${options.host}:${options.port}`;
  const transporter = nodemailer.createTransport({
    ...options,
    pool: false,
    connectionTimeout: limitMs,
    greetingTimeout: limitMs,
    socketTimeout: limitMs,
  });
  try {
    await transporter.verify();
    const auth = options.auth ? `AUTH accepted for ${options.auth.user}` : 'no credentials in SMTP_URL, no AUTH';
    return ok('transport', `SMTP ${options.secure ? 'with TLS ' : ''}at ${where}: connected, ${auth}`);
  } catch (error) {
    return fail('transport', `SMTP at ${where}: ${describeError(error)}`, smtpFix(error, where));
  } finally {
    transporter.close();
  }
}

/** SES: GetAccount, which sends nothing and says whether the account may send. */
async function sesRow(config: Readonly<Config>, limitMs: number): Promise<CheckRow> {
  const { SESv2Client, GetAccountCommand } = await import('@aws-sdk/client-sesv2');
  const { region, endpoint, accessKeyId, secretAccessKey } = config.ses;
  const client = new SESv2Client({
    region: region!,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    maxAttempts: 1,
    requestHandler: { requestTimeout: limitMs, connectionTimeout: limitMs },
  });
  try {
    const account = await client.send(new GetAccountCommand({}));
    if (account.SendingEnabled === false)
      return fail('transport', `SES (${region}): sending is paused for this account`, 'See the SES console.');
    if (account.ProductionAccessEnabled === false) {
      return warn(
        'transport',
        `SES (${region}): the account is in the sandbox, which delivers only to verified addresses`,
        'Request production access in the SES console.',
      );
    }
    const quota = account.SendQuota;
    const sent = quota ? `, ${quota.SentLast24Hours ?? 0} of ${quota.Max24HourSend ?? '?'} sent in 24 h` : '';
    return ok('transport', `SES (${region}): sending enabled${sent}`);
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'AccessDeniedException') {
      return warn(
        'transport',
        `SES (${region}): the credentials work, but may not call ses:GetAccount, so sending was not checked`,
        'Allow ses:GetAccount to these credentials to let doctor check the account.',
      );
    }
    return fail(
      'transport',
      `SES (${region}): ${name && name !== 'Error' ? `${name}: ` : ''}${describeError(error)}`,
      'Check SES_REGION, SES_ENDPOINT and the credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the role).',
    );
  } finally {
    client.destroy();
  }
}

/** The outbox folder, or the folder it will be made in, can be written. */
function outboxRow(dir: string): CheckRow {
  let existing = dir;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  try {
    if (!fs.statSync(existing).isDirectory()) throw new Error(`${existing} is not a folder`);
    fs.accessSync(existing, fs.constants.W_OK);
  } catch (error) {
    return fail(
      'transport',
      `outbox ${dir} cannot be written: ${describeError(error)}`,
      'Let the user Herald runs as write DATA_DIR (chown/chmod), or point DATA_DIR elsewhere.',
    );
  }
  return ok('transport', `outbox: every message is written to ${dir} (nothing leaves this machine)`);
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
