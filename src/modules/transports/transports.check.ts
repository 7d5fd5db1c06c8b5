// POST /transports/{id}/test: one connection (SMTP: greeting, EHLO, STARTTLS when offered, AUTH; SES: GetAccount; the
// outbox: its folder can be written), bounded in time and closed afterwards; what happened, without any secret.
import type { AppContext } from '../../context.types.ts';
import type { Transport } from '../../mail/transport.ts';
import { findOr404 } from '../../lib/errors.ts';
import { parseSmtpUrl } from '../../mail/transports/smtp.ts';
import { openTransport } from './transports.directory.ts';
import { redactSecrets } from './transports.redact.ts';
import * as repo from './transports.repo.ts';
import { DEFAULT_TRANSPORT_ID } from './transports.route.ts';
import { unsealTransportSecret } from './transports.secrets.ts';
import { directoryConfigOf, instanceSecrets, instanceUsername } from './transports.view.ts';

/** How long a test may take before it counts as no answer. */
export const TEST_LIMIT_MS = 15_000;

export interface TransportTest {
  ok: boolean;
  message: string;
  durationMs: number;
}

interface Target {
  transport: Transport;
  /** Whether the test opened it (and so closes it); the instance's own stays open. */
  owned: boolean;
  secrets: (string | undefined)[];
  username: string | undefined;
  success: string;
}

function smtpSuccess(where: { host: string; port: number; secure: boolean }, username: string | undefined): string {
  const tls = where.secure ? ' with TLS' : '';
  const auth = username ? `AUTH accepted for ${username}` : 'no user name, so no AUTH';
  return `SMTP ${where.host}:${where.port}${tls}: connected, ${auth}`;
}

function defaultTarget(ctx: AppContext): Target {
  const { config } = ctx;
  let success = 'outbox: its folder (DATA_DIR/outbox) can be written';
  if (config.mailTransport === 'ses') success = `SES ${config.ses.region ?? ''}: GetAccount answered`;
  if (config.mailTransport === 'smtp' && config.smtpUrl) {
    const options = parseSmtpUrl(config.smtpUrl);
    const where = { host: options.host ?? '', port: Number(options.port ?? 0), secure: options.secure === true };
    success = smtpSuccess(where, instanceUsername(config));
  }
  return {
    transport: ctx.transport,
    owned: false,
    secrets: instanceSecrets(config),
    username: instanceUsername(config),
    success,
  };
}

function storedTarget(ctx: AppContext, row: repo.TransportRecord): Target | TransportTest {
  const keys = directoryConfigOf(ctx);
  let secret;
  try {
    secret = unsealTransportSecret(row.secret, keys);
  } catch {
    return {
      ok: false,
      message:
        'Its secret does not open with APP_SECRET (nor APP_SECRET_PREVIOUS): it was saved under another APP_SECRET. ' +
        'Set the password or secret access key again (PATCH /transports/{id}).',
      durationMs: 0,
    };
  }
  const c = row.config;
  const success =
    row.type === 'smtp'
      ? smtpSuccess({ host: c.host ?? '', port: c.port ?? 0, secure: c.secure === true }, c.username)
      : row.type === 'ses'
        ? `SES ${c.region ?? ''}: GetAccount answered for ${c.accessKeyId ?? ''}`
        : 'outbox: its folder (DATA_DIR/outbox) can be written';
  const secrets = [secret.password, secret.secretAccessKey];
  try {
    return { transport: openTransport(row, keys), owned: true, secrets, username: c.username, success };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: redactSecrets(message, secrets, c.username), durationMs: 0 };
  }
}

/** `work`, or a rejection once `ms` passed without its answer. */
function bounded(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Opens one connection to the transport and says what happened; a failure is an answer, not an error. */
export async function testTransport(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  limitMs?: number;
}): Promise<TransportTest> {
  const { ctx } = opts;
  let target: Target | TransportTest;
  if (opts.id === DEFAULT_TRANSPORT_ID) target = defaultTarget(ctx);
  else {
    const row = await findOr404('Transport', opts.id, () => repo.findTransport(ctx.db, opts.projectId, opts.id));
    target = storedTarget(ctx, row);
  }
  if (!('transport' in target)) return target;
  const started = performance.now();
  let ok = true;
  let message = target.success;
  try {
    await bounded(target.transport.verify(), opts.limitMs ?? TEST_LIMIT_MS);
  } catch (error) {
    ok = false;
    message = error instanceof Error && error.message ? error.message : String(error);
  } finally {
    if (target.owned) await target.transport.close().catch(() => {});
  }
  return {
    ok,
    message: redactSecrets(message.replace(/\s+/g, ' ').trim(), target.secrets, target.username).slice(0, 1000),
    durationMs: Math.round(performance.now() - started),
  };
}
