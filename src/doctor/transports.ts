// Doctor's checks of the transports mail leaves through: the instance's own (`transport`, from MAIL_TRANSPORT) and
// each project's (`transport <project>/<name>`), each with one connection made now. SMTP: the transport's own
// verify() (connect, EHLO, STARTTLS when offered, AUTH, QUIT). SES: the instance's with GetAccount, whose answer
// also says whether the account may send; a project's with its verify() (GetAccount too). Outbox: its folder can be
// written (doctor creates no folder, so it does not make it).
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.types.ts';
import type { Transport } from '../mail/transport.ts';
import { createSmtpTransport, parseSmtpUrl } from '../mail/transports/smtp.ts';
import * as projects from '../modules/projects/index.ts';
import * as transports from '../modules/transports/index.ts';
import { describeError, fail, isRefused, ok, warn, within, type CheckRow } from './rows.ts';

/** The instance's transport row: a connection that would carry the next message, made now. */
export function transportRow(config: Readonly<Config>, limitMs: number): Promise<CheckRow> {
  switch (config.mailTransport) {
    case 'smtp':
      return smtpRow(config.smtpUrl!, limitMs);
    case 'ses':
      return sesRow('transport', { ...config.ses, region: config.ses.region! }, limitMs, SES_FIX);
    case 'outbox':
      return Promise.resolve(outboxRow('transport', path.join(config.dataDir, 'outbox')));
  }
}

/** The cause behind a transport's DeliveryError (nodemailer's error, with its code). */
const causeOf = (error: unknown): unknown => (error as { cause?: unknown }).cause ?? error;

/** Why the SMTP relay of SMTP_URL refused doctor, as what to change. */
function smtpFix(error: unknown, where: string): string {
  const code = (causeOf(error) as { code?: string }).code;
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

/** verify() of a transport, closed afterwards. */
async function verified(transport: Transport, limitMs: number): Promise<void> {
  try {
    await within(limitMs, transport.verify());
  } finally {
    await transport.close().catch(() => {});
  }
}

async function smtpRow(smtpUrl: string, limitMs: number): Promise<CheckRow> {
  let options: ReturnType<typeof parseSmtpUrl>;
  try {
    options = parseSmtpUrl(smtpUrl);
  } catch (error) {
    return fail('transport', describeError(error), 'Correct SMTP_URL (docs/configuration.md).');
  }
  const where = `${options.host}:${options.port}`;
  const transport = createSmtpTransport({
    url: smtpUrl,
    maxConnections: 1,
    connectionTimeoutMs: limitMs,
    greetingTimeoutMs: limitMs,
    socketTimeoutMs: limitMs,
  });
  try {
    await verified(transport, limitMs * 2);
    const auth = options.auth ? `AUTH accepted for ${options.auth.user}` : 'no credentials in SMTP_URL, no AUTH';
    return ok('transport', `SMTP ${options.secure ? 'with TLS ' : ''}at ${where}: connected, ${auth}`);
  } catch (error) {
    return fail('transport', `SMTP at ${where}: ${describeError(error)}`, smtpFix(error, where));
  }
}

const SES_FIX =
  'Check SES_REGION, SES_ENDPOINT and the credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the role).';

interface SesSettings {
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/** SES: GetAccount, which sends nothing and says whether the account may send. */
async function sesRow(name: string, settings: SesSettings, limitMs: number, fix: string): Promise<CheckRow> {
  const { SESv2Client, GetAccountCommand } = await import('@aws-sdk/client-sesv2');
  const { region, endpoint, accessKeyId, secretAccessKey } = settings;
  const client = new SESv2Client({
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    maxAttempts: 1,
    requestHandler: { requestTimeout: limitMs, connectionTimeout: limitMs },
  });
  try {
    const account = await client.send(new GetAccountCommand({}));
    if (account.SendingEnabled === false)
      return fail(name, `SES (${region}): sending is paused for this account`, 'See the SES console.');
    if (account.ProductionAccessEnabled === false) {
      return warn(
        name,
        `SES (${region}): the account is in the sandbox, which delivers only to verified addresses`,
        'Request production access in the SES console.',
      );
    }
    const quota = account.SendQuota;
    const sent = quota ? `, ${quota.SentLast24Hours ?? 0} of ${quota.Max24HourSend ?? '?'} sent in 24 h` : '';
    return ok(name, `SES (${region}): sending enabled${sent}`);
  } catch (error) {
    const code = (error as { name?: string }).name;
    if (code === 'AccessDeniedException') {
      return warn(
        name,
        `SES (${region}): the credentials work, but may not call ses:GetAccount, so sending was not checked`,
        'Allow ses:GetAccount to these credentials to let doctor check the account.',
      );
    }
    const detail = `SES (${region}): ${code && code !== 'Error' ? `${code}: ` : ''}${describeError(error)}`;
    return fail(name, transports.redactSecrets(detail, [secretAccessKey]), fix);
  } finally {
    client.destroy();
  }
}

/** The outbox folder, or the folder it will be made in, can be written. */
function outboxRow(name: string, dir: string): CheckRow {
  let existing = dir;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  try {
    if (!fs.statSync(existing).isDirectory()) throw new Error(`${existing} is not a folder`);
    fs.accessSync(existing, fs.constants.W_OK);
  } catch (error) {
    return fail(
      name,
      `outbox ${dir} cannot be written: ${describeError(error)}`,
      'Let the user Herald runs as write DATA_DIR (chown/chmod), or point DATA_DIR elsewhere.',
    );
  }
  return ok(name, `outbox: every message is written to ${dir} (nothing leaves this machine)`);
}

type StoredTransport = Awaited<ReturnType<typeof transports.listAllTransports>>[number] & { projectName: string };

/** Every project transport, with its project's name. */
async function storedTransports(ctx: AppContext): Promise<StoredTransport[]> {
  const names = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await projects.listProjects({ db: ctx.db, limit: 100, cursor });
    for (const project of page.items) names.set(project.id, project.name);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const rows = await transports.listAllTransports({ db: ctx.db });
  return rows.map((row) => ({ ...row, projectName: names.get(row.projectId) ?? row.projectId }));
}

/** One project transport's row: the test POST /transports/{id}/test makes (its answer carries no secret). */
async function storedRow(ctx: AppContext, row: StoredTransport, limitMs: number): Promise<CheckRow> {
  const name = `transport ${row.projectName}/${row.name}`;
  if (row.type === 'outbox') return outboxRow(name, path.join(ctx.config.dataDir, 'outbox'));
  const result = await transports.testTransport({ ctx, projectId: row.projectId, id: row.id, limitMs });
  if (result.ok) return ok(name, result.message);
  const what = row.type === 'smtp' ? 'host, port, user name and password' : 'region and credentials';
  return fail(
    name,
    result.message,
    `Check its ${what} (PATCH /transports/${row.id} in project ${row.projectId}) and that this machine reaches it.`,
  );
}

/** A row per project transport (none when no project has one), checked side by side, each within its limit. */
export async function projectTransportRows(ctx: AppContext, limitMs: number): Promise<CheckRow[]> {
  let list: StoredTransport[];
  try {
    list = await within(limitMs, storedTransports(ctx));
  } catch (error) {
    return [fail('transports', `not checked: ${describeError(error)}`, "Look at the database server's log.")];
  }
  return Promise.all(
    list.map((row) =>
      within(limitMs + 1000, storedRow(ctx, row, limitMs)).catch((error: unknown) =>
        fail(`transport ${row.projectName}/${row.name}`, describeError(error), 'Check the transport’s host.'),
      ),
    ),
  );
}
