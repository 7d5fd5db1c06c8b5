import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadMcpClientConfig } from './config.ts';
import { DataDirLockedError } from './db/lock.ts';
import { bannerLines } from './cli.banner.ts';
import { RemoteCommandError, runThroughServer } from './cli.remote.ts';
import { startRuntime, type Role, type Runtime } from './runtime.ts';
import { serveMcpOverStdio } from './modules/mcp/index.ts';
import * as projects from './modules/projects/index.ts';
import * as domains from './modules/domains/index.ts';
import * as accounts from './modules/accounts/index.ts';
import * as transports from './modules/transports/index.ts';
import { newOrigin, runWithOrigin, type Actor } from './lib/request-origin.ts';
import { runBackupCommand } from './backup/command.ts';
import { doctorCommand } from './doctor/index.ts';

/** Changes made with the command line, as the audit log names them. */
const CLI_ACTOR: Actor = { type: 'admin', id: null, label: 'cli' };
const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;

const usage = `herald <command>   (herald --help: this text)

  serve                         API and worker in one process (the default of npm start)
  api                           HTTP API only
  worker                        background jobs only
  migrate                       bring the database schema up to date and exit
  projects create <name>        create a project and print its keys
  projects list                 list projects
  projects disable|enable <id>  disable or re-enable a project
  keys create <projectId> [--type secret|public] [--name <name>] [--scope full|sending|read]
              [--expires-at <ISO date-time>]
  keys revoke <projectId> <keyId>
  users create --email <email> [--name <name>] [--admin] [--project <id> --role owner|admin|editor|viewer]
                                create a person and print a one-time set-password link (valid 24 h)
  users reset-password --email <email>
                                print a one-time link that sets a new password (valid 24 h)
  mcp                           MCP tools over stdio for desktop agents (HERALD_URL, HERALD_API_KEY)
  backup <file> [--passphrase-file <file>]
                                write the database, APP_SECRET and the admin token to <file> (mode 0600),
                                encrypted with the passphrase when given (docs/backup.md)
  restore <file> [--passphrase-file <file>]
                                restore a backup into an empty DATA_DIR (or the empty database of DATABASE_URL)
  reseal                        seal every transport secret again under APP_SECRET (after a rotation, with the
                                old secret as APP_SECRET_PREVIOUS; docs/transports.md)
  doctor [--json] [--ntp host[:port]|off]
                                check configuration, database, domains, transport, listeners and clock;
                                exit code 1 when a check fails (docs/doctor.md)
`;

async function runServer(role: Exclude<Role, 'tool'>): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config, role);
  process.stdout.write(bannerLines(config, role, runtime).join('\n') + '\n');
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    runtime.ctx.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 20_000);
    timer.unref();
    runtime.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** A command that reads or changes projects: done on the database, or through a running server's admin API. */
interface ToolCommand {
  local(runtime: Runtime): Promise<unknown>;
  remote: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown } | null;
}

async function runTool(command: ToolCommand): Promise<void> {
  const config = loadConfig();
  let result: unknown;
  try {
    const runtime = await startRuntime(config, 'tool');
    try {
      result = await runWithOrigin(newOrigin({ ip: null, userAgent: null, requestId: null }, CLI_ACTOR), () =>
        command.local(runtime),
      );
    } finally {
      await runtime.close();
    }
  } catch (error) {
    // The embedded database is held by a running server: ask that server instead.
    if (!(error instanceof DataDirLockedError)) throw error;
    result = await runThroughServer(config, command, error);
  }
  if (result !== undefined) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}

class UsageError extends Error {}

/** The key's options from the command line, checked by the keys API's own rules; a usage error names the flag. */
function keyOptions(values: {
  type: 'secret' | 'public';
  name?: string | undefined;
  scope?: string | undefined;
  'expires-at'?: string | undefined;
}) {
  const name = values.name?.trim();
  const parsed = projects.createKeyBody.safeParse({
    type: values.type,
    name,
    scope: values.scope,
    expiresAt: values['expires-at'],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]);
    const flag = field === 'expiresAt' ? 'expires-at' : field;
    throw new UsageError(`--${flag}: ${issue.message}`);
  }
  const { scope, expiresAt } = parsed.data;
  return { ...(name ? { name } : {}), ...(scope ? { scope } : {}), ...(expiresAt ? { expiresAt } : {}) };
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        type: { type: 'string', default: 'secret' },
        name: { type: 'string' },
        email: { type: 'string' },
        admin: { type: 'boolean' },
        project: { type: 'string' },
        role: { type: 'string' },
        scope: { type: 'string' },
        'expires-at': { type: 'string' },
        'passphrase-file': { type: 'string' },
        json: { type: 'boolean' },
        ntp: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // node:util's message names the option (Unknown option '--x'); the usage says what there is.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseCommandLine(argv);
  const [command, sub, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(usage);
    return;
  }
  switch (command) {
    case 'serve':
    case 'api':
    case 'worker':
      return runServer(command);
    case 'doctor':
      return doctorCommand({ json: values.json === true, ntp: values.ntp });
    case 'mcp':
      return serveMcpOverStdio(loadMcpClientConfig());
    case 'backup':
    case 'restore':
      if (sub && rest.length === 0)
        return runBackupCommand(command, {
          config: loadConfig(),
          file: sub,
          passphraseFile: values['passphrase-file'],
        });
      break;
    case 'migrate':
      return runTool({
        local: async () => {
          process.stdout.write('Database is up to date.\n');
        },
        remote: null,
      });
    case 'reseal':
      if (sub) break;
      return runTool({
        local: ({ ctx }) => transports.resealTransportSecrets({ ctx }),
        remote: { method: 'POST', path: '/admin/transports/reseal' },
      });
    case 'projects':
      if (sub === 'create' && rest[0]) {
        const name = rest.join(' ');
        return runTool({
          local: ({ ctx }) => projects.createProject({ db: ctx.db, name, setup: domains.newProjectSetup(ctx) }),
          remote: { method: 'POST', path: '/admin/projects', body: { name } },
        });
      }
      if (sub === 'list') {
        return runTool({
          local: ({ ctx }) => projects.listProjects({ db: ctx.db, limit: 100 }),
          remote: { method: 'GET', path: '/admin/projects?limit=100' },
        });
      }
      if ((sub === 'disable' || sub === 'enable') && rest[0]) {
        const [id, disabled] = [rest[0], sub === 'disable'];
        return runTool({
          local: ({ ctx }) => projects.updateProject({ db: ctx.db, holds: ctx.holds, id, disabled }),
          remote: { method: 'PATCH', path: `/admin/projects/${encodeURIComponent(id)}`, body: { disabled } },
        });
      }
      break;
    case 'keys':
      if (sub === 'create' && rest[0] && (values.type === 'secret' || values.type === 'public')) {
        const projectId = rest[0];
        const type = values.type;
        const options = keyOptions({ ...values, type });
        return runTool({
          local: ({ ctx }) => projects.createApiKey({ ctx, projectId, type, ...options }),
          remote: {
            method: 'POST',
            path: `/admin/projects/${encodeURIComponent(projectId)}/keys`,
            body: { type, ...options },
          },
        });
      }
      if (sub === 'revoke' && rest[0] && rest[1]) {
        const [projectId, keyId] = [rest[0], rest[1]];
        return runTool({
          local: async ({ ctx }) => (await projects.revokeApiKey({ db: ctx.db, projectId, keyId })).view,
          remote: {
            method: 'DELETE',
            path: `/admin/projects/${encodeURIComponent(projectId)}/keys/${encodeURIComponent(keyId)}`,
          },
        });
      }
      break;
    case 'users':
      if (sub === 'create' && values.email) {
        const role = values.role;
        if (role !== undefined && !(ROLES as readonly string[]).includes(role))
          throw new UsageError('--role: must be owner, admin, editor or viewer');
        if ((role === undefined) !== (values.project === undefined))
          throw new UsageError('--project and --role go together');
        const body = {
          email: values.email,
          ...(values.name ? { name: values.name } : {}),
          isAdmin: values.admin === true,
          ...(values.project ? { projectId: values.project, role } : {}),
        };
        return runTool({
          local: ({ ctx }) =>
            accounts.createUserWithLink({ ctx, ...body, role: role as (typeof ROLES)[number] | undefined }),
          remote: { method: 'POST', path: '/admin/users', body },
        });
      }
      if (sub === 'reset-password' && values.email) {
        const email = values.email;
        return runTool({
          local: ({ ctx }) => accounts.resetLinkFor({ ctx, email }),
          remote: { method: 'POST', path: '/admin/users/password-link', body: { email } },
        });
      }
      break;
  }
  process.stderr.write(usage);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`herald: ${error.message}\n\n${usage}`);
    process.exit(2);
  } else if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof RemoteCommandError
  ) {
    process.stderr.write(`herald: ${error.message}\n`);
  } else {
    process.stderr.write(`herald: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
