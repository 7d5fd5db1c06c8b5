// What a transport looks like in answers: its non-secret settings, its health, and no secret (a relay's reply kept
// as its last error has the secret cut out); the built-in `default` from the instance's configuration.
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { iso } from '../../lib/http.ts';
import { parseSmtpUrl } from '../../mail/transports/smtp.ts';
import type { DirectoryConfig } from './transports.directory.ts';
import { readHealth, type TransportHealth } from './transports.health.ts';
import { redactSecrets } from './transports.redact.ts';
import type * as repo from './transports.repo.ts';
import { DEFAULT_TRANSPORT_ID } from './transports.route.ts';
import type { TransportView } from './transports.schemas.ts';
import { unsealTransportSecret, type TransportSecret } from './transports.secrets.ts';

/** What opening a stored transport needs: the data folder, and the app secrets its secret is sealed with. */
export function directoryConfigOf(ctx: Pick<AppContext, 'config' | 'secrets'>): DirectoryConfig {
  return {
    dataDir: ctx.config.dataDir,
    appSecret: ctx.secrets.appSecret,
    appSecretPrevious: ctx.config.appSecretPrevious,
    mailTransport: ctx.config.mailTransport,
    transportTimeouts: ctx.config.transportTimeouts,
  };
}

/** The secrets of a stored transport (none when neither app secret opens it). */
export function secretsOf(ctx: Pick<AppContext, 'config' | 'secrets'>, row: repo.TransportRecord): TransportSecret {
  try {
    return unsealTransportSecret(row.secret, directoryConfigOf(ctx));
  } catch {
    return {};
  }
}

/** The instance's own secrets (SMTP_URL's password, the AWS secret key), kept out of what is shown. */
export function instanceSecrets(config: AppContext['config']): string[] {
  const found: string[] = [];
  if (config.smtpUrl) {
    try {
      const auth = parseSmtpUrl(config.smtpUrl).auth;
      if (auth && 'pass' in auth && auth.pass) found.push(auth.pass);
    } catch {
      // an SMTP_URL that does not parse never starts the instance
    }
  }
  if (config.ses.secretAccessKey) found.push(config.ses.secretAccessKey);
  return found;
}

/** The user name of SMTP_URL, if any. */
export function instanceUsername(config: AppContext['config']): string | undefined {
  if (!config.smtpUrl) return undefined;
  try {
    const auth = parseSmtpUrl(config.smtpUrl).auth;
    return auth && 'user' in auth ? auth.user : undefined;
  } catch {
    return undefined;
  }
}

function defaultConfigView(config: AppContext['config']): TransportView['config'] {
  if (config.mailTransport === 'ses') return { region: config.ses.region ?? '' };
  if (config.mailTransport !== 'smtp' || !config.smtpUrl) return {};
  const options = parseSmtpUrl(config.smtpUrl);
  const auth = options.auth && 'user' in options.auth ? options.auth : null;
  return {
    host: options.host ?? '',
    port: Number(options.port ?? 0),
    secure: options.secure === true,
    ...(auth?.user ? { username: auth.user } : {}),
    hasPassword: Boolean(auth?.pass),
  };
}

function configView(row: Pick<repo.TransportRecord, 'type' | 'config' | 'secret'>): TransportView['config'] {
  const c = row.config;
  if (row.type === 'smtp')
    return {
      host: c.host ?? '',
      port: c.port ?? 0,
      ...(c.secure !== undefined ? { secure: c.secure } : {}),
      ...(c.username !== undefined ? { username: c.username } : {}),
      hasPassword: row.secret !== null,
    };
  if (row.type === 'ses')
    return {
      region: c.region ?? '',
      accessKeyId: c.accessKeyId ?? '',
      hasSecretAccessKey: row.secret !== null,
      ...(c.snsTopicArns ? { snsTopicArns: c.snsTopicArns } : {}),
      ...(c.endpoint ? { endpoint: c.endpoint } : {}),
    };
  return {};
}

function healthView(h: TransportHealth, secrets: string[], username: string | undefined) {
  return {
    state: h.state,
    since: h.since.getTime() > 0 ? iso(h.since) : null,
    lastError: h.lastError === null ? null : redactSecrets(h.lastError, secrets, username),
    lastErrorAt: iso(h.lastErrorAt),
    retryAt: h.state === 'DOWN' ? iso(h.downUntil) : null,
    failovers: h.failovers,
    lastFailoverAt: iso(h.lastFailoverAt),
  };
}

export function defaultView(ctx: AppContext, health: TransportHealth): TransportView {
  return {
    id: DEFAULT_TRANSPORT_ID,
    name: DEFAULT_TRANSPORT_ID,
    type: ctx.config.mailTransport,
    builtIn: true,
    config: defaultConfigView(ctx.config),
    maxPerSecond: null,
    maxConnections: null,
    ...healthView(health, instanceSecrets(ctx.config), instanceUsername(ctx.config)),
    createdAt: null,
    updatedAt: null,
  };
}

export function toView(ctx: AppContext, row: repo.TransportRecord, health: TransportHealth): TransportView {
  const secret = secretsOf(ctx, row);
  const secrets = [secret.password, secret.secretAccessKey].filter((s): s is string => Boolean(s));
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    builtIn: false,
    config: configView(row),
    maxPerSecond: row.maxPerSecond,
    maxConnections: row.maxConnections,
    ...healthView(health, secrets, row.config.username),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export async function viewOf(ctx: AppContext, db: Executor, row: repo.TransportRecord): Promise<TransportView> {
  const health = await readHealth(db, [row.id]);
  return toView(ctx, row, health.get(row.id)!);
}
