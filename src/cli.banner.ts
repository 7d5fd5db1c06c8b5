// What `herald serve|api|worker` prints when it is up: where to go, what it runs on, and on the first start
// the Default project's keys (shown once) and a first send that works as printed.
import path from 'node:path';
import type { Config } from './config.ts';
import type { Role, Runtime } from './runtime.ts';

function databaseLine(config: Readonly<Config>): string {
  if (!config.databaseUrl) return `embedded (PGlite), in ${path.join(config.dataDir, 'db')}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

function mailLine(config: Readonly<Config>): string {
  switch (config.mailTransport) {
    case 'outbox':
      return `outbox: every message is written to ${path.join(config.dataDir, 'outbox')} (nothing leaves this machine)`;
    case 'smtp':
      return `SMTP relay at ${new URL(config.smtpUrl!).host}`;
    case 'ses':
      return `Amazon SES (${config.ses.region})`;
  }
}

/** A listener's address (`smtp://host:port`; a wildcard host as localhost) and what it takes. */
function listenerLine(listener: NonNullable<Runtime['listeners']>[number]): string {
  const host = ['0.0.0.0', '::', ''].includes(listener.host) ? 'localhost' : listener.host;
  const where = `smtp://${host.includes(':') ? `[${host}]` : host}:${listener.port}`;
  return listener.note ? `${where}  (${listener.note})` : where;
}

/** The lines printed once the process is up (the first one is what the test harness waits for). */
export function bannerLines(
  config: Readonly<Config>,
  role: Exclude<Role, 'tool'>,
  runtime: Pick<Runtime, 'app' | 'bootstrap' | 'setupToken' | 'generatedAdminToken' | 'listeners'>,
): string[] {
  const address = runtime.app?.server.address();
  const port = address && typeof address === 'object' ? address.port : null;
  const lines =
    port !== null ? [`Herald ${role} listening on http://${config.host}:${port}`, ''] : [`Herald ${role} running`, ''];
  // PUBLIC_URL when set; else the port actually bound (PORT=0 picks one).
  const base = config.publicUrlConfigured || port === null ? config.publicUrl : `http://localhost:${port}`;
  if (runtime.app) lines.push(`  Dashboard   ${base}/`, `  API docs    ${base}/docs`);
  lines.push(`  Database    ${databaseLine(config)}`);
  if (role !== 'api') lines.push(`  Mail        ${mailLine(config)}`);
  // The SMTP listeners this process runs: the relay takes a project's secret key as the password.
  for (const listener of runtime.listeners) {
    lines.push(`  ${listener.label.padEnd(12)}${listenerLine(listener)}`);
  }
  const created = runtime.bootstrap;
  if (created) {
    lines.push(
      '',
      `  Created the project "${created.name}" (${created.id}). Its keys are shown only now; keep them:`,
      `    secret key   ${created.secretKey}`,
      `    public key   ${created.publicKey}`,
    );
  }
  if (runtime.generatedAdminToken) {
    lines.push(
      `    admin token  ${runtime.generatedAdminToken}  (also saved in ${path.join(config.dataDir, 'admin-token')})`,
    );
  }
  if (runtime.setupToken) {
    lines.push(
      '',
      '  Create the first user (this link is shown only now, and works until someone has used it):',
      `    ${base}/setup#${runtime.setupToken}`,
    );
  }
  if (created && runtime.app && config.mailTransport === 'outbox') {
    lines.push(
      '',
      '  Send a first email (from the ready local sender, herald.localhost):',
      `    curl -X POST ${base}/v1/send -H "Authorization: Bearer ${created.secretKey}" ` +
        `-H 'Content-Type: application/json' \\`,
      `      -d '{"to": "you@example.com", "from": "hello@herald.localhost", ` +
        `"subject": "Hello", "body": "<p>Hello from Herald</p>"}'`,
      `    ls ${path.join(config.dataDir, 'outbox')}`,
    );
  }
  return [...lines, ''];
}
